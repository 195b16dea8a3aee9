/** The eight suggestion endpoints through the gateway, answered by the built-in engine, on a realistic session. */
import { randomUUID } from 'node:crypto';
import { suggestionPayload } from '../src/api/schemas.ts';
import type { SuggestionKind } from '../src/domain/suggestions.ts';
import { startAiPlatform, type AiPlatform } from './support/ai-platform.ts';

const THREE_FEATURES = {
  title: 'Product search page',
  description:
    'As a shopper, I want to search products, filter them by price and save favourites, so that I find gifts quickly.',
};
const VAGUE = {
  title: 'Make search better',
  description: 'Search should be fast and user-friendly, with some filters etc.',
};
const WELL_FORMED = {
  title: 'Filter products by price',
  description:
    'As a shopper, I want to filter products by a price range, so that I only see products I can afford.',
  acceptance_criteria:
    'Given products priced 5, 15 and 25, When I filter from 10 to 20, Then only the product priced 15 is shown\n' +
    'Given no product is in the range, When I filter, Then I see "No products found"',
};
const CHECKOUT = {
  title: 'Pay for the cart',
  description:
    'As a buyer, I want to pay for my cart with a saved card, so that checkout takes one step. If the card is declined I can retry.',
};

describe('the assistant through the gateway (built-in engine)', () => {
  let h: AiPlatform;
  let owner: string;
  let code: string;
  let sessionId: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    h = await startAiPlatform();
    owner = await h.signUp('Olivia');
    ({ code, id: sessionId } = await h.session(owner));
    ids.three = await h.addStory(owner, code, THREE_FEATURES); // the current story
    ids.vague = await h.addStory(owner, code, VAGUE);
    ids.good = await h.addStory(owner, code, WELL_FORMED);
    ids.checkout = await h.addStory(owner, code, CHECKOUT);
  }, 60_000);
  afterAll(() => h.stop());

  const ask = (name: string, body?: unknown, token = owner) => h.ask(token, code, name, body);

  it('splits a story joining three features into at least three, each in story form with criteria', async () => {
    const res = await ask('split-current-story');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, review_required: true, provider: 'builtin' });
    const split = res.body.suggestions;
    expect(split.story_id).toBe(ids.three);
    expect(split.stories.length).toBeGreaterThanOrEqual(3);
    const titles = split.stories.map((s: { title: string }) => s.title.toLowerCase()).join(' | ');
    for (const feature of ['search products', 'filter products', 'save favourites'])
      expect(titles).toContain(feature);
    for (const s of split.stories) {
      expect(s.description).toMatch(/^As a shopper, I want to .+, so that I find gifts quickly\./);
      expect(s.acceptance_criteria).toMatch(/Given .+When .+Then /);
    }
    expect(split.rationale).toMatch(/conjunction/i);
    expect(res.body.data.suggestions).toEqual(split);
  });

  it('writes Given/When/Then criteria from the actor and actions, with a failure case', async () => {
    const res = await ask('generate-acceptance-criteria', { story_id: ids.checkout });
    expect(res.status).toBe(200);
    const criteria: string[] = res.body.suggestions.acceptance_criteria;
    expect(criteria.length).toBeGreaterThanOrEqual(2);
    for (const c of criteria) expect(c).toMatch(/^Given .+, When .+, Then .+/);
    expect(criteria.some((c) => /buyer/.test(c) && /pay for my cart with a saved card/.test(c))).toBe(true);
    expect(criteria.some((c) => /declined/.test(c) && /nothing is charged/i.test(c))).toBe(true);
    const few = await ask('generate-acceptance-criteria', { story_id: ids.three, count: 2 });
    expect(few.body.suggestions.acceptance_criteria).toHaveLength(2);
  });

  it('scores a vague story lower than a well-formed one, naming what is wrong', async () => {
    const vague = (await ask('analyze-current-story', { story_id: ids.vague })).body.suggestions;
    const good = (await ask('analyze-current-story', { story_id: ids.good })).body.suggestions;
    expect(vague.clarity_score).toBeLessThan(good.clarity_score);
    expect(good.clarity_score).toBeGreaterThanOrEqual(80);
    expect(vague.clarity_score).toBeLessThanOrEqual(40);
    const kinds = vague.issues.map((i: { kind: string }) => i.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'missing_role',
        'missing_benefit',
        'vague_wording',
        'missing_acceptance_criteria',
      ]),
    );
    expect(vague.questions.join(' ')).toMatch(/response time/);
    expect(vague.invest).toMatchObject({ testable: false, valuable: false });
    expect(good.invest).toMatchObject({ testable: true, valuable: true, small: true });
    const current = (await ask('analyze-current-story')).body.suggestions;
    expect(current.story_id).toBe(ids.three);
    expect(current.issues.map((i: { kind: string }) => i.kind)).toContain('multiple_features');
  });

  it('rewrites a story in user-story form, with the rationale', async () => {
    const res = await ask('improve-current-story', { story_id: ids.vague });
    const improved = res.body.suggestions;
    expect(improved.story_id).toBe(ids.vague);
    expect(improved.description).toMatch(/^As a .+, I want to .+, so that .+/);
    expect(improved.description).not.toMatch(/\betc\b/);
    expect(improved.description).toMatch(/Open questions:/);
    expect(improved.rationale.length).toBeGreaterThanOrEqual(2);
  });

  it('drafts `count` stories from the actors and goals of a brief', async () => {
    const brief =
      'A booking app for a yoga studio. Members book classes and cancel bookings, instructors publish their weekly ' +
      'schedule, and the studio owner sees attendance reports so that she can plan rooms.';
    const res = await ask('draft-stories', { text: brief, count: 4 });
    expect(res.status).toBe(200);
    const stories = res.body.suggestions.stories as Array<{
      title: string;
      description: string;
      acceptance_criteria: string;
    }>;
    expect(stories).toHaveLength(4);
    expect(stories.map((s) => s.description.split(',')[0])).toEqual([
      'As a member',
      'As a member',
      'As an instructor',
      'As a studio owner',
    ]);
    expect(stories.map((s) => s.title)).toEqual([
      'Book classes',
      'Cancel bookings',
      'Publish my weekly schedule',
      'See attendance reports',
    ]);
    expect(stories[3]!.description).toContain('so that I can plan rooms');
    for (const s of stories) expect(s.acceptance_criteria).toMatch(/Given .+When .+Then /);
    expect((await ask('draft-stories', {})).status).toBe(422);
  });

  it('reports agreement, outlying votes and recommendations from the revealed votes', async () => {
    const voters = await Promise.all(['Ann', 'Ben', 'Cy', 'Di'].map((n) => h.join(code, n)));
    await h.voteAndReveal(owner, code, ids.three!, voters, ['3', '3', '3', '3']);
    await h.voteAndReveal(owner, code, ids.vague!, voters, ['2', '5', '13', '5']);
    const report = (await ask('estimation-report')).body.suggestions;
    expect(report.session_id).toBe(sessionId);
    expect(report.totals).toMatchObject({
      stories: 4,
      revealed: 2,
      estimated: 2,
      unestimated: 2,
      votes: 8,
      points: 8,
    });
    expect(report.agreement.unanimous).toBe(1);
    expect(report.agreement.wide_spread).toBe(1);
    expect(
      report.agreement.by_story.find((s: { story_id: string }) => s.story_id === ids.vague),
    ).toMatchObject({
      final_estimate: '5',
      agreement: 0.5,
      lowest: '2',
      highest: '13',
    });
    expect(report.outliers.map((o: { vote: string }) => o.vote).sort()).toEqual(['13', '2']);
    expect(report.recommendations.join('\n')).toMatch(/Split or clarify "Make search better"/);
    expect(report.recommendations.join('\n')).toMatch(
      /Estimate the 2 remaining stories, starting with "Filter products by price"/,
    );

    const summary = (await ask('summary')).body.suggestions;
    expect(summary.summary).toMatch(/4 stories, 2 revealed \(8 points\), 2 to estimate/);
    expect(summary.risks.join('\n')).toMatch(/Wide spread on "Make search better"/);
    expect(summary.next_steps[0]).toMatch(/Finish the vote on "Filter products by price"/);
  });

  it('suggests nothing it writes: the stories stay as they were', async () => {
    const before = (await h.client.get(`/sessions/${code}/stories`)).body.stories;
    for (const name of ['improve-current-story', 'split-current-story', 'generate-acceptance-criteria'])
      expect((await ask(name)).status).toBe(200);
    expect((await h.client.get(`/sessions/${code}/stories`)).body.stories).toEqual(before);
  });

  it('answers only the owner (403), an unknown session or story with 404, a bad body with 422, no token with 401', async () => {
    const stranger = await h.signUp('Mallory');
    expect((await ask('summary', undefined, stranger)).status).toBe(403);
    expect((await ask('split-current-story', undefined, stranger)).body.error.code).toBe('forbidden');
    expect((await h.ask(owner, 'ZZZZZ9', 'summary')).status).toBe(404);
    expect((await h.ask(owner, 'not-a-code', 'summary')).status).toBe(404);
    const unknown = await ask('analyze-current-story', { story_id: randomUUID() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('story_not_found');
    for (const body of [
      { story_id: 'nope' },
      { count: 0 },
      { count: 11 },
      { count: 2 ** 32 },
      { colour: 'blue' },
      { prompt: 'x'.repeat(2_001) },
      { text: 'nul \u0000 here' },
      [],
    ]) {
      const res = await ask('draft-stories', body);
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
      expect(res.body.errors).toBeDefined();
    }
    expect((await h.ask(undefined, code, 'summary')).status).toBe(401);
  });

  it('answers no_current_story when nothing is open and no story is named', async () => {
    const other = await h.session(owner, { name: 'Empty' });
    const res = await h.ask(owner, other.code, 'analyze-current-story');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('no_current_story');
  });

  it('answers every endpoint within its documented schema on long, repetitive, empty and odd stories', async () => {
    const reports = ['export', 'print', 'email', 'archive', 'share', 'tag', 'rename', 'copy', 'move']
      .concat(['lock', 'pin', 'star', 'sign', 'merge'])
      .map((verb) => `${verb} reports`);
    const stories = [
      {
        title: 'Reports',
        description: `As a manager I want to ${reports.join(' and ')} so that the team is informed`,
      },
      {
        title: 'Manage orders',
        description: `As a user I want to manage orders so that ${'the team can see reports '.repeat(200)}`,
      },
      {
        title: 'Edit create',
        description: `As a user I want to ${'manage create and edit orders and '.repeat(300)}`.slice(
          0,
          10_000,
        ),
        acceptance_criteria: `Given ${'a saved card '.repeat(700)}When I pay Then I get a receipt`.slice(
          0,
          10_000,
        ),
      },
      { title: '🙂 日本語 مرحبا', description: '??\n\n- …\n1. ', acceptance_criteria: 'x'.repeat(10_000) },
      { title: 'x' },
    ];
    const other = await h.session(owner, { name: 'Long stories' });
    const ids = [];
    for (const s of stories) ids.push(await h.addStory(owner, other.code, s));
    const fits = async (kind: SuggestionKind, body: object) => {
      const res = await h.ask(owner, other.code, kind, body);
      expect({ kind, body, status: res.status }).toEqual({ kind, body, status: 200 });
      const checked = suggestionPayload(kind).safeParse(res.body);
      expect({ kind, body, issues: checked.error?.issues ?? [] }).toEqual({ kind, body, issues: [] });
      return res.body.suggestions;
    };

    for (const story_id of ids) {
      for (const kind of ['analyze-current-story', 'improve-current-story', 'estimate-assistant'] as const)
        await fits(kind, { story_id });
      await fits('generate-acceptance-criteria', { story_id, count: 10 });
      const split = await fits('split-current-story', { story_id });
      const titles = split.stories.map((s: { title: string }) => s.title.toLowerCase());
      expect(new Set(titles).size).toBe(titles.length);
    }
    const split = await fits('split-current-story', { story_id: ids[0] });
    expect(split.stories).toHaveLength(12);
    expect(split.rationale).toMatch(/the other 1 \("merge reports"\)/);
    const criteria = await fits('generate-acceptance-criteria', { story_id: ids[1] });
    for (const c of criteria.acceptance_criteria) expect(c.length).toBeLessThan(600);
    await fits('summary', {});
    await fits('estimation-report', {});

    for (const text of ['Build a shop', 'As a user I want to log in', 'Checkout', '🙂', 'x'.repeat(5_000)])
      for (const count of [1, 5, 10]) {
        const drafts = await fits('draft-stories', { text, count });
        expect({ text, count, drafted: drafts.stories.length }).toEqual({ text, count, drafted: count });
      }
    const login = await fits('draft-stories', { text: 'As a user I want to log in', count: 5 });
    expect(login.stories.map((s: { title: string }) => s.title)).toEqual([
      'Log in',
      'Reset my password',
      'View my account',
      'Change my account',
      'Get notified about changes to my account',
    ]);
  });

  it("counts the session's own revealed stories as history at once, before any event", async () => {
    const res = await ask('estimate-assistant', { story_id: ids.good });
    expect(res.status).toBe(200);
    const similar = res.body.suggestions.similar_stories;
    expect(similar[0]).toMatchObject({
      story_id: ids.three,
      title: 'Product search page',
      final_estimate: '3',
    });
    expect(res.body.suggestions.suggested_estimate).toBe('3');
  });
});
