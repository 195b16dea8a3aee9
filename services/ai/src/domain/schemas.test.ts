import { fc, test } from '@fast-check/jest';
import { analyzeStory } from './analyze.ts';
import { acceptanceCriteria } from './criteria.ts';
import { draftStories } from './draft.ts';
import { historyOf, suggestEstimate } from './estimate.ts';
import { improveStory } from './improve.ts';
import { estimationReport } from './report.ts';
import { termCounts } from './similarity.ts';
import { splitStory } from './split.ts';
import { suggestionSchemas, type SuggestionKind } from './suggestions.ts';
import { summarizeSession } from './summary.ts';
import { titleKey } from './text.ts';

/** The answer's schema issues (none when it fits), readable in a failing property's report. */
const issuesOf = (kind: SuggestionKind, answer: unknown) => {
  const checked = suggestionSchemas[kind].safeParse(answer);
  return checked.success ? [] : checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

const titlesOf = (stories: Array<{ title: string }>) => stories.map((s) => titleKey(s.title));

/** Words the engine reacts to (roles, verbs, conjunctions, conditions, list markers), and odd ones. */
const WORDS = [
  ...[
    'As a',
    'user',
    'manager',
    'I want to',
    'we need to',
    'so that',
    'in order to',
    'Given',
    'When',
    'Then',
  ],
  ...['and', 'or', 'then', 'first', 'finally', 'if', 'when', 'unless', 'etc', 'some', 'fast', 'them', 'it'],
  ...['manage', 'create', 'edit', 'delete', 'export', 'search', 'filter', 'log in', 'pay', 'book', 'get'],
  ...['reports', 'orders', 'the invoice', 'my classes', 'as CSV, Excel and PDF', 'by price', 'is declined'],
  ...['.', ',', ';', '\n', '\n1.', '\n- ', '…', '??', '🙂', '日本語', 'مرحبا', 'x'.repeat(300)],
];

const words = fc.array(fc.constantFrom(...WORDS), { maxLength: 80 }).map((w) => w.join(' '));
const features = fc
  .tuple(
    fc.constantFrom('user', 'manager', 'buyer', 'studio owner'),
    fc.array(fc.constantFrom('export', 'print', 'manage', 'create', 'view', 'pin', 'sign', 'merge'), {
      minLength: 1,
      maxLength: 40,
    }),
    fc.constantFrom('reports', 'orders', 'the invoices of the month'),
    words,
  )
  .map(
    ([role, verbs, thing, value]) =>
      `As a ${role} I want to ${verbs.map((v) => `${v} ${thing}`).join(' and ')} so that ${value}`,
  );
const odd = fc.string({ unit: 'grapheme', maxLength: 300 });
/** Short, long, repetitive, empty or odd text, at most `max` long (cut where the API would refuse more). */
const text = (max: number) =>
  fc
    .oneof(
      words,
      features,
      odd,
      fc.constant(''),
      fc
        .tuple(fc.oneof(words, features, odd), fc.integer({ min: 2, max: 3_000 }))
        .map(([t, n]) => t.repeat(n)),
    )
    .map((t) => t.slice(0, max).toWellFormed());

/** A story as the stories unit keeps it: a title of 1..200 characters (trimmed), texts up to 10,000. */
const story = fc.record({
  id: fc.uuid(),
  title: text(200).map((t) => t.trim() || 'Story'),
  description: text(10_000),
  acceptance_criteria: text(10_000),
});

const FIBONACCI = ['0', '0.5', '1', '2', '3', '5', '8', '13', '20', '40', '100', '?', 'coffee'];
const deck = fc.oneof(
  fc.constant(FIBONACCI),
  fc.constant(['XS', 'S', 'M', 'L', 'XL', 'XXL', '?', 'coffee']),
  fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 30 }),
);
/** A session's stories, each pending, open for votes or revealed with the cards voted. */
const session = deck.chain((cards) =>
  fc.tuple(
    fc.constant(cards),
    fc.array(
      fc.tuple(
        story,
        fc.constantFrom('pending', 'voting', 'revealed'),
        fc.option(fc.constantFrom(...cards)),
        fc.array(fc.constantFrom(...cards), { maxLength: 12 }),
      ),
      { maxLength: 25 },
    ),
  ),
);

describe('every built-in answer fits the schema the API documents for it', () => {
  test.prop([story, fc.integer({ min: 1, max: 10 })], { numRuns: 150 })(
    'analysis, rewrite, criteria and split of any story',
    (s, count) => {
      expect(issuesOf('analyze-current-story', analyzeStory(s))).toEqual([]);
      expect(issuesOf('improve-current-story', improveStory(s))).toEqual([]);
      const criteria = acceptanceCriteria(s, count);
      expect(issuesOf('generate-acceptance-criteria', criteria)).toEqual([]);
      expect(criteria.acceptance_criteria.length).toBeLessThanOrEqual(Math.max(2, count));
      const split = splitStory(s);
      expect(issuesOf('split-current-story', split)).toEqual([]);
      expect(new Set(titlesOf(split.stories)).size).toBe(split.stories.length);
    },
  );

  test.prop([text(5_000).filter((t) => t.trim().length > 0), fc.integer({ min: 1, max: 10 })], {
    numRuns: 150,
  })('exactly `count` drafts, each title once, from any brief', (brief, count) => {
    const drafts = draftStories(brief.trim(), count);
    expect(issuesOf('draft-stories', drafts)).toEqual([]);
    expect(drafts.stories).toHaveLength(count);
    expect(new Set(titlesOf(drafts.stories)).size).toBe(count);
  });

  test.prop([session, fc.string({ minLength: 1, maxLength: 200 })], { numRuns: 60 })(
    'summary and estimation report of any session',
    ([cards, rows], name) => {
      const stories = rows.map(([s, status, final, votes]) => ({
        ...s,
        status,
        final_estimate: status === 'revealed' ? final : null,
        votes: status === 'revealed' ? votes : [],
      }));
      expect(issuesOf('summary', summarizeSession({ id: 'session', name }, stories, cards))).toEqual([]);
      expect(issuesOf('estimation-report', estimationReport('session', stories, cards))).toEqual([]);
    },
  );

  test.prop([story, session], { numRuns: 60 })('estimate from any history', (s, [cards, rows]) => {
    const past = rows.map(([p, , final]) => ({
      item: { story_id: p.id, title: p.title, final_estimate: final },
      counts: termCounts(p),
    }));
    const history = historyOf(past.slice(1), past.slice(0, 1));
    expect(issuesOf('estimate-assistant', suggestEstimate(s, history, cards))).toEqual([]);
  });
});

const story1 = (title: string, description = '', acceptance_criteria = '') => ({
  id: 's1',
  title,
  description,
  acceptance_criteria,
});

describe('long and repetitive stories', () => {
  it('splits a story of 14 features joined by "and" into 12 stories at most, naming the ones left', () => {
    const verbs = ['export', 'print', 'email', 'archive', 'share', 'tag', 'rename', 'copy', 'move'];
    const all = [...verbs, 'lock', 'pin', 'star', 'sign', 'merge'].map((v) => `${v} reports`);
    const split = splitStory(
      story1('Reports', `As a manager I want to ${all.join(' and ')} so that the team is informed`),
    );
    expect(split.stories).toHaveLength(12);
    expect(split.stories[0]!.title).toBe('Export reports');
    expect(split.rationale).toMatch(/The first 12 are drafted here; the other 1 \("merge reports"\)/);
  });

  it('drafts each feature of a 10,000-character story once', () => {
    const goal = 'manage create and edit orders and '.repeat(300);
    const split = splitStory(story1('Orders', `As a user I want to ${goal}`.slice(0, 10_000)));
    const titles = titlesOf(split.stories);
    expect(titles.length).toBeLessThanOrEqual(12);
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles.filter((t) => t === 'edit create')).toHaveLength(1);
  });

  it('cuts a long value at a word boundary in the criteria rather than copying it whole', () => {
    const criteria = acceptanceCriteria(
      story1(
        'Manage orders',
        `As a user I want to manage orders so that ${'the team can see reports '.repeat(200)}`,
      ),
    ).acceptance_criteria;
    for (const c of criteria) expect(c.length).toBeLessThan(600);
    expect(criteria[0]).toMatch(/, And (the team can see reports ){3,}.*…$/);
  });

  it("keeps the three parts of a long Given/When/Then of the story's own", () => {
    const own = `Given ${'a saved card '.repeat(200)}When I pay ${'now '.repeat(200)}Then I get a receipt`;
    const criteria = acceptanceCriteria(story1('Pay', 'As a buyer I want to pay', own), 6);
    const kept = criteria.acceptance_criteria.find((c) => c.startsWith('Given a saved card'));
    expect(kept).toMatch(/^Given a saved card .*… When I pay .*… Then I get a receipt$/);
  });

  it('reads a long line of "given when …" without a Then into criteria of the documented length', () => {
    const criteria = acceptanceCriteria(story1('Pay', '', 'given when '.repeat(900)), 6);
    expect(criteria.acceptance_criteria.every((c) => c.length <= 2_000)).toBe(true);
  });
});

describe('drafting from a brief', () => {
  it("reads an imperative brief as the user's goal and fills up with follow-ups", () => {
    const titles = draftStories('Build a shop', 5).stories.map((s) => s.title);
    expect(titles).toEqual([
      'Build a shop',
      'View my shop',
      'Change my shop',
      'Get notified about changes to my shop',
      'Get clear feedback when I cannot build a shop',
    ]);
  });

  it('follows up a goal that acts on nothing with what its kind is about ("log in": the account)', () => {
    const drafts = draftStories('As a user I want to log in', 5).stories;
    expect(drafts.map((s) => s.title)).toEqual([
      'Log in',
      'Reset my password',
      'View my account',
      'Change my account',
      'Get notified about changes to my account',
    ]);
    expect(drafts[1]!.description).toMatch(
      /^As a user, I want to reset my password, so that .+\n\nNot in the brief/,
    );
  });

  it('reads a brief with no verb as what the user uses', () => {
    expect(draftStories('Checkout', 2).stories.map((s) => s.title)).toEqual(['Checkout', 'View my orders']);
    expect(draftStories('A booking app', 1).stories.map((s) => s.title)).toEqual(['Use a booking app']);
  });
});
