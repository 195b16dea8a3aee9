import { isTestable } from './analyze.ts';
import { QUOTED, readStory, type Action, type StoryReading, type StoryText } from './story-form.ts';
import { verbKind } from './lexicon.ts';
import { LIMITS } from './suggestions.ts';
import { article, clip, isPlural, pastParticiple } from './text.ts';

export interface Criteria {
  story_id: string;
  acceptance_criteria: string[];
}

/** What a user sees once an action succeeded, by the kind of verb. */
function outcome(a: Action): string {
  // "get notified about …", "get clear feedback when …": getting it is the outcome.
  if (a.verb === 'get') return `I ${a.phrase}`;
  const thing = a.thing || 'it';
  const the = a.thing ? `the ${thing}` : 'it';
  switch (verbKind(a.verb)) {
    case 'create':
      return `${the} ${isPlural(thing) ? 'are' : 'is'} saved and I see ${isPlural(thing) ? 'them' : 'it'} in the list`;
    case 'edit':
      return `my changes to ${the} are saved and shown the next time I open ${isPlural(thing) ? 'them' : 'it'}`;
    case 'delete':
      return `${the} no longer ${isPlural(thing) ? 'appear' : 'appears'} in the list`;
    case 'view':
      return `I see ${the} with ${isPlural(thing) ? 'their' : 'its'} details`;
    case 'search':
      return `only the ${thing} matching my criteria are shown, in a predictable order`;
    case 'export':
      return `I receive a file with ${the} that I can open`;
    case 'import':
      return `${the} ${isPlural(thing) ? 'are' : 'is'} added and I see how many were taken in`;
    case 'pay':
      return `the payment is confirmed and I receive a receipt`;
    case 'book':
      return `${the} ${isPlural(thing) ? 'are' : 'is'} reserved for me and I receive a confirmation`;
    case 'cancel':
      return `${the} ${isPlural(thing) ? 'are' : 'is'} cancelled and I receive a confirmation`;
    case 'send':
      return `the recipients receive ${the}`;
    case 'login':
      return 'I am signed in and see my home page';
    case 'decide':
      return `${the} ${isPlural(thing) ? 'are' : 'is'} marked as ${pastParticiple(a.verb)} and the requester is told`;
    default:
      return `${the} ${isPlural(thing) ? 'are' : 'is'} ${pastParticiple(a.verb)} and I see a confirmation`;
  }
}

/** What goes wrong for an action, and what the user must see then. */
function failure(a: Action, actor: string): string {
  if (a.verb === 'get')
    return `Given I am ${actor} and it is not possible right now, When I try to ${a.phrase}, Then I am told why, And what I can do instead`;
  const the = a.thing ? `the ${a.thing}` : 'it';
  switch (verbKind(a.verb)) {
    case 'pay':
      return `Given I am ${actor} whose payment is declined, When I try to ${a.phrase}, Then nothing is charged or confirmed, And I see why and how to try again`;
    case 'view':
      return `Given I am ${actor} without access to ${the}, When I try to ${a.phrase}, Then I am refused, And nothing of ${the} is shown`;
    case 'search':
      return `Given no ${a.thing || 'item'} ${isPlural(a.thing) ? 'match' : 'matches'} my criteria, When I ${a.phrase}, Then I see that nothing was found, And how to widen the search`;
    case 'import':
      return `Given I am ${actor} with a file that is too large or in the wrong format, When I try to ${a.phrase}, Then nothing is added, And I see what is wrong with the file`;
    case 'login':
      return `Given I enter a wrong password, When I try to ${a.phrase}, Then I am not signed in, And I see an error that does not say which part was wrong`;
    case 'delete':
    case 'cancel':
      return `Given ${the} ${isPlural(a.thing) ? 'belong' : 'belongs'} to someone else, When I try to ${a.phrase}, Then I am refused, And ${the} ${isPlural(a.thing) ? 'stay' : 'stays'} as ${isPlural(a.thing) ? 'they were' : 'it was'}`;
    default:
      return `Given I am ${actor} and the details I give are missing or invalid, When I try to ${a.phrase}, Then nothing is ${pastParticiple(a.verb)}, And I see which detail to correct`;
  }
}

/** How much of one of the story's own criteria is kept: a longer one is cut at a word boundary. */
const OWN_LINE = 600;

/** A criterion in Given/When/Then form from a line that has none ("Totals include tax"). */
const fromLine = (line: string, actor: string, a: Action | undefined) =>
  `Given I am ${actor}, When I ${a ? a.phrase : 'use this feature'}, Then ${clip(line.replace(/[.\s]+$/, '').replace(/^then\s+/i, ''), OWN_LINE)}`;

/**
 * Where the Given, the When after it and the Then after that start in a line (searched one after the
 * other: a single pattern with two `.*` takes seconds on a long line of "given when …"); undefined
 * when one is missing.
 */
function gwtParts(line: string): [given: number, when: number, then: number] | undefined {
  const given = line.search(/\bgiven\b/i);
  if (given < 0) return undefined;
  const when = line.slice(given).search(/\bwhen\b/i);
  if (when < 0) return undefined;
  const then = line.slice(given + when).search(/\bthen\b/i);
  return then < 0 ? undefined : [given, given + when, given + when + then];
}

/**
 * A criterion of the story's own already in Given/When/Then form, as written; a long one from its
 * "Given" on, each of the three parts cut on its own (so none of them is lost).
 */
function ownGwt(line: string, [given, when, then]: [number, number, number]): string {
  if (line.length <= OWN_LINE) return line;
  return [line.slice(given, when), line.slice(when, then), line.slice(then)]
    .map((part) => clip(part.trim(), OWN_LINE / 3))
    .join(' ');
}

const actorOf = (reading: StoryReading) => {
  const role = reading.role ?? reading.impliedRole ?? 'user';
  return `${article(role)} ${role}`.replace(/^an? (the|my|our) /i, '$1 ');
};

/** How many criteria `count` asks for: never fewer than two (one success, one failure), nor more than a list holds. */
export const criteriaLimit = (count: number) => Math.min(LIMITS.criteria, Math.max(2, count));

/**
 * Given/When/Then criteria from the story's actor, its actions and the conditions it names: the happy
 * path of each action, each condition, the story's own criteria put in that form, and at least one
 * failure path. At most `count` (never fewer than two: one success, one failure).
 */
export function acceptanceCriteria(story: StoryText, count = 6): Criteria {
  const reading = readStory(story);
  const actor = actorOf(reading);
  const title = clip(story.title, QUOTED.phrase);
  const actions: Action[] =
    reading.actions.length > 0
      ? reading.actions
      : [{ verb: 'use', object: title, thing: title, phrase: `use ${title}` }];
  const benefit = reading.benefit ? `, And ${reading.benefit.replace(/^(?:i|we)\s+/i, 'I ')}` : '';
  const happy = actions.map(
    (a, i) => `Given I am ${actor}, When I ${a.phrase}, Then ${outcome(a)}${i === 0 ? benefit : ''}`,
  );
  const own = reading.criteria.map((line) => {
    const parts = gwtParts(line);
    return parts ? ownGwt(line, parts) : fromLine(line, actor, actions[0]);
  });
  const conditions = reading.conditions.map(
    (c) =>
      `Given ${c.replace(/^(?:when|if|once|whenever|only if|in case)\s+/i, '')}, When I ${actions[0]!.phrase}, Then ${outcome(actions[0]!)}`,
  );
  const failures = actions.map((a) => failure(a, actor));
  const limit = criteriaLimit(count);
  const chosen: string[] = [happy[0]!, failures[0]!];
  for (const c of [
    ...own.filter(isTestable),
    ...happy.slice(1),
    ...conditions,
    ...failures.slice(1),
    ...own,
  ]) {
    if (chosen.length >= limit) break;
    if (!chosen.includes(c)) chosen.push(c);
  }
  // The failure path stays in, last, whatever the count.
  const ordered = [chosen[0]!, ...chosen.slice(2), chosen[1]!];
  return { story_id: story.id, acceptance_criteria: ordered };
}

/** The criteria of a story drafted or split off: one success, one failure, as free text (one a line). */
export const criteriaText = (story: Omit<StoryText, 'id' | 'acceptance_criteria'>) =>
  acceptanceCriteria({ id: '', acceptance_criteria: '', ...story }, 2)
    .acceptance_criteria.map((c) => `- ${c}`)
    .join('\n');
