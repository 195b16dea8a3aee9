/** The estimate assistant finds, among an owner's revealed stories of other sessions, the ones like this one. */
import { startAiPlatform, until, type AiPlatform } from './support/ai-platform.ts';

const SIMILAR = [
  {
    title: 'Download an invoice as PDF',
    description: 'As an accountant, I want to download an invoice as a PDF file, so that I can archive it.',
  },
  {
    title: 'Export the month’s invoices to PDF',
    description:
      'As an accountant, I want to export every invoice of a month to one PDF file, so that I can send them to the auditor.',
  },
];
const UNRELATED = [
  ['Sign in with email and password', 'As a member, I want to sign in with my email and password.'],
  ['Reset a forgotten password', 'As a member, I want a reset link by email when I forget my password.'],
  ['Upload a profile picture', 'As a member, I want to upload a photo for my profile.'],
  ['Dark mode', 'As a reader, I want a dark colour scheme for the evening.'],
  ['Search the catalogue', 'As a shopper, I want to search products by name.'],
  ['Shopping cart', 'As a shopper, I want to keep products in a cart until I buy them.'],
  ['Card payment at checkout', 'As a buyer, I want to pay with a credit card at checkout.'],
  ['Administrator roles', 'As an administrator, I want to give colleagues the editor role.'],
  ['Audit log of changes', 'As an administrator, I want to see who changed what and when.'],
  [
    'Import contacts from a spreadsheet',
    'As a salesperson, I want to bring my contacts in from a spreadsheet.',
  ],
  ['Calendar sync', 'As a member, I want my bookings in my phone calendar.'],
  ['Two-factor authentication', 'As a member, I want a one-time code from an app at sign-in.'],
  ['Chat between team members', 'As a team member, I want to send messages to colleagues.'],
  ['Dashboard charts', 'As a manager, I want charts of weekly sales on my dashboard.'],
  ['Language setting', 'As a visitor, I want to read the site in German or French.'],
  ['Rate limiting of the public API', 'As an operator, I want clients limited to 60 requests a minute.'],
  ['Newsletter subscription', 'As a visitor, I want to subscribe to the monthly newsletter.'],
  ['Delete my account', 'As a member, I want to close my account and erase my data.'],
].map(([title, description]) => ({ title: title!, description: description! }));

describe('the estimate assistant', () => {
  let h: AiPlatform;
  beforeAll(async () => {
    h = await startAiPlatform();
  });
  afterAll(() => h.stop());

  it('finds the two most similar of twenty revealed stories and proposes a card of the deck', async () => {
    const owner = await h.signUp('Priya');
    const past = await h.session(owner, { name: 'Last quarter' });
    const voter = await h.join(past.code, 'Sam');
    const similarIds: string[] = [];
    const seeds = [...UNRELATED.slice(0, 9), SIMILAR[0]!, ...UNRELATED.slice(9), SIMILAR[1]!];
    for (const story of seeds) {
      const id = await h.addStory(owner, past.code, story);
      const card = SIMILAR.includes(story) ? '5' : ['1', '2', '3', '8', '13'][seeds.indexOf(story) % 5]!;
      expect(await h.voteAndReveal(owner, past.code, id, [voter], [card])).toBe(card);
      if (SIMILAR.includes(story)) similarIds.push(id);
    }
    expect(seeds).toHaveLength(20);

    const now = await h.session(owner, {
      name: 'This quarter',
      voting_system: 'custom',
      custom_deck_name: 'Powers of two',
      custom_deck_values: ['1', '2', '4', '8', '16', '?'],
    });
    const target = await h.addStory(owner, now.code, {
      title: 'Export an invoice as PDF',
      description:
        'As an accountant, I want to export a single invoice as a PDF file, so that I can email it to the client.',
    });
    // The history of other sessions comes from story.revealed events: wait until all twenty are in.
    const res = await until(async () => {
      const r = await h.ask(owner, now.code, 'estimate-assistant');
      const found = r.body.suggestions?.similar_stories?.map((s: { story_id: string }) => s.story_id) ?? [];
      return similarIds.every((id) => found.includes(id)) ? r : undefined;
    }, 20_000);
    const suggestion = res.body.suggestions;
    expect(res.body.provider).toBe('builtin');
    expect(suggestion.story_id).toBe(target);
    expect(
      suggestion.similar_stories
        .slice(0, 2)
        .map((s: { story_id: string }) => s.story_id)
        .sort(),
    ).toEqual([...similarIds].sort());
    for (const s of suggestion.similar_stories.slice(0, 2)) {
      expect(s.final_estimate).toBe('5');
      expect(s.similarity).toBeGreaterThan(0.3);
    }
    for (const s of suggestion.similar_stories.slice(2))
      expect(s.similarity).toBeLessThan(suggestion.similar_stories[1].similarity);
    // Both were 5; this deck has no 5: the nearest card (by ratio) is 4.
    expect(suggestion.suggested_estimate).toBe('4');
    expect(suggestion.confidence).toBeGreaterThan(0.3);
    expect(suggestion.confidence).toBeLessThanOrEqual(1);
    expect(suggestion.reasoning.join(' ')).toMatch(/Most similar: ".*PDF"/);
  }, 60_000);

  it("never uses another owner's history", async () => {
    const other = await h.signUp('Quinn');
    const session = await h.session(other);
    await h.addStory(other, session.code, {
      title: 'Export an invoice as PDF',
      description: 'As an accountant, I want a PDF of an invoice.',
    });
    const res = await h.ask(other, session.code, 'estimate-assistant');
    expect(res.status).toBe(200);
    expect(res.body.suggestions.similar_stories).toEqual([]);
    expect(res.body.suggestions.confidence).toBeLessThanOrEqual(0.1);
    expect(res.body.suggestions.reasoning[0]).toMatch(/no revealed story/i);
  });
});
