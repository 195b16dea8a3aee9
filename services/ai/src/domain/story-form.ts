import { ROLE_NOUNS, UMBRELLA_VERBS } from './lexicon.ts';
import { baseVerb, clip, decapitalize, isFeatureVerb, listItems, sentences, words } from './text.ts';

/** A story as the assistant reads it: the text a client wrote. */
export interface StoryText {
  id: string;
  title: string;
  description: string;
  acceptance_criteria: string;
}

/** One feature the story asks for: a verb, what it acts on, and the whole phrase ("export invoices to PDF"). */
export interface Action {
  verb: string;
  /** What the verb acts on, with its qualifiers ("invoices to PDF"); may be empty. */
  object: string;
  /** The object without its qualifiers ("invoices"), for outcomes. */
  thing: string;
  phrase: string;
}

export interface StoryReading {
  /** From "As a …": null when the story names nobody. */
  role: string | null;
  /** From "I want to …" (or a title that starts with a verb). */
  goal: string | null;
  /** From "so that …" / "in order to …". */
  benefit: string | null;
  /** Whether the text has the "As a … I want … so that …" form (role and goal at least). */
  storyForm: boolean;
  actions: Action[];
  /** Acceptance criteria, one per line. */
  criteria: string[];
  /** Conditions the text mentions ("when the card is declined"). */
  conditions: string[];
  /** Sentences of the description other than the story form itself. */
  details: string[];
  /** A role named elsewhere ("admins can …") when there is no "As a …". */
  impliedRole: string | null;
}

const FORM =
  /\bas\s+(?:an?|the|one of the)\s+([^,\n]+?)\s*,?\s+(?:i|we)\s+(?:want|need|would like|wish|'d like|should be able|must be able|can|am able|expect)\s+(?:to\s+)?(?:be able to\s+)?([^\n]+)/i;
const BENEFIT = /\s*,?\s*\b(?:so that|in order to|so i can|so we can|so)\b\s*/i;
const SEPARATOR =
  /\s*(?:,\s*(?:and\s+|or\s+|then\s+)?|;\s*|\s+(?:and then|and|or|as well as|plus|then)\s+)/gi;
const PREPOSITION =
  /\s+(?:by|to|from|with|in|on|for|as|into|via|at|without|when|if|using|per|after|before)\s+/i;
const PRONOUN = /^(?:them|it|those|these|this|that)\b/i;
const CONDITION =
  /\b(?:when|if|unless|once|whenever|only if|in case)\s+(.{4,120}?)(?=[,.;:\n]|\s+then\b|\s+(?:i|we|you|they|it|the system)\s+(?:can|should|must|will|may|see|get|am|are)\b|$)/gi;
const DELEGATED = /^(?:allow|let|enable)\s+(?:the\s+)?([\p{L}-]+?)s?\s+(?:to\s+)?(.+)$/iu;

const trimEnd = (text: string) => text.replace(/[\s.;:!,]+$/, '').trim();

/**
 * The longest part of a story the engine quotes in what it writes (a role, an action's phrase, a
 * value): a longer one is cut at a word boundary, so whatever a story holds, every sentence built
 * from it stays short enough for its answer's schema (and for a reader).
 */
export const QUOTED = { role: 60, phrase: 160, benefit: 200 } as const;

/** The object's head: its words up to the first preposition ("products by price" -> "products"). */
const thingOf = (object: string) =>
  object
    .split(PREPOSITION)[0]!
    .replace(/^(?:the|a|an|my|our|their|all)\s+/i, '')
    .trim();

function action(chunk: string): Action {
  const [first = '', ...rest] = clip(chunk.trim(), QUOTED.phrase).split(/\s+/);
  const verb = baseVerb(first);
  const object = rest.join(' ');
  return { verb, object, thing: thingOf(object), phrase: [verb, object].filter(Boolean).join(' ') };
}

/**
 * The features a goal joins with conjunctions and commas, each split off only where a verb starts the
 * next part ("terms and conditions" stays whole). Bare verbs share the object that follows them
 * ("create, edit and delete invoices"), and a pronoun takes the object before it ("filter them").
 */
export function actionsOf(goal: string): Action[] {
  const text = trimEnd(goal);
  const chunks: string[] = [];
  let start = 0;
  for (const m of text.matchAll(SEPARATOR)) {
    const next = text.slice(m.index + m[0].length);
    const firstWord = next.split(/\s+/)[0] ?? '';
    if (!isFeatureVerb(firstWord)) continue;
    chunks.push(text.slice(start, m.index));
    start = m.index + m[0].length;
  }
  chunks.push(text.slice(start));
  const actions = chunks
    .map((c) => c.trim())
    .filter(Boolean)
    .map(action);
  if (actions.length > 1 && !isFeatureVerb(actions[0]!.verb)) return [action(text)];
  for (let i = actions.length - 2; i >= 0; i--) {
    const a = actions[i]!;
    if (!a.object && actions[i + 1]!.object) actions[i] = action(`${a.verb} ${actions[i + 1]!.object}`);
  }
  for (let i = 1; i < actions.length; i++) {
    const a = actions[i]!;
    const before = actions[i - 1]!;
    if (PRONOUN.test(a.object) && before.thing)
      actions[i] = action(`${a.verb} ${a.object.replace(PRONOUN, before.thing)}`);
  }
  return actions;
}

/** The goal a title states when it starts with a verb ("Export invoices to PDF"). */
function goalOfTitle(title: string): string | null {
  const first = title.trim().split(/\s+/)[0] ?? '';
  return isFeatureVerb(first) ? decapitalize(trimEnd(title)) : null;
}

function impliedRoleOf(text: string): string | null {
  for (const word of words(text)) {
    const singular = word.replace(/s$/, '');
    if (ROLE_NOUNS.has(word)) return word;
    if (ROLE_NOUNS.has(singular)) return singular;
  }
  return null;
}

export function readStory(
  story: Pick<StoryText, 'title' | 'description' | 'acceptance_criteria'>,
): StoryReading {
  const description = story.description ?? '';
  const form = FORM.exec(description) ?? FORM.exec(story.title);
  let role: string | null = null;
  let goal: string | null = null;
  let benefit: string | null = null;
  if (form) {
    role = clip(trimEnd(form[1]!), QUOTED.role);
    const [want, ...why] = form[2]!.split(/(?<=[.!?])\s+/)[0]!.split(BENEFIT);
    goal = trimEnd(want ?? '') || null;
    benefit = why.length > 0 ? clip(trimEnd(why.join(' ')), QUOTED.benefit) || null : null;
  }
  const delegated = form ? null : DELEGATED.exec(story.title.trim());
  if (delegated && isFeatureVerb(delegated[2]!.split(/\s+/)[0] ?? '')) {
    role = clip(delegated[1]!.toLowerCase(), QUOTED.role);
    goal = trimEnd(delegated[2]!);
  }
  goal ??= goalOfTitle(story.title);
  const actions = goal ? actionsOf(goal) : [];
  const details = sentences(description).filter((s) => !FORM.test(s));
  const conditions = [...description.matchAll(CONDITION)].map((m) =>
    trimEnd(m[0]).replace(/^\p{Lu}/u, (c) => c.toLowerCase()),
  );
  return {
    role,
    goal,
    benefit,
    storyForm: Boolean(form && goal),
    actions: actions.filter((a) => a.verb.length > 0),
    criteria: listItems(story.acceptance_criteria ?? ''),
    conditions: [...new Set(conditions)],
    details,
    impliedRole: role ? null : impliedRoleOf(`${story.title} ${description}`),
  };
}

/** Whether an action is an umbrella for several operations ("manage invoices"). */
export const isUmbrella = (a: Action) => UMBRELLA_VERBS.has(a.verb);
