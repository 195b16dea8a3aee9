import nlp from 'compromise';
import { criteriaText } from './criteria.ts';
import { likelyBenefit } from './improve.ts';
import type { DraftStory } from './split.ts';
import { verbKind, type VerbKind } from './lexicon.ts';
import { actionsOf, QUOTED, readStory, type Action } from './story-form.ts';
import { LIMITS } from './suggestions.ts';
import {
  article,
  baseVerb,
  capitalize,
  clip,
  decapitalize,
  isFeatureVerb,
  isPlural,
  sentences,
  titleKey,
  words,
} from './text.ts';

export interface Drafts {
  stories: DraftStory[];
}

interface Need {
  actor: string;
  action: Action;
  benefit: string | null;
  derived?: boolean;
  /** Its criteria, when the ones read from its goal would not say what matters. */
  criteria?: string[];
}

interface Term {
  text: string;
  normal: string;
  tags: string[];
  post?: string;
}

const NOT_ACTION = new Set(['Modal', 'Auxiliary', 'Copula', 'Gerund', 'PastTense', 'Participle']);
const isVerb = (t: Term) => t.tags.includes('Verb') && !t.tags.some((tag) => NOT_ACTION.has(tag));
const isNoun = (t: Term) => t.tags.includes('Noun') && !t.tags.includes('Pronoun');

const POSSESSIVE = /\b(?:their|his|her)\b/gi;
const PRONOUN_SUBJECT = /^(?:she|he|they|it)\s+/i;

/** A plural noun's singular, good enough for roles ("members", "classes", "studies"). */
const singular = (noun: string) =>
  noun
    .replace(/ies$/, 'y')
    .replace(/(ss|sh|ch|x)es$/, '$1')
    .replace(/([^s])s$/, '$1');

/** A verb's base form: the lexicon's, else the third person's "-s" taken off ("publishes" -> "publish"). */
function infinitive(term: Term): string {
  const known = baseVerb(term.normal);
  if (known !== term.normal || !term.tags.includes('PresentTense')) return known;
  return singular(term.normal);
}

/** Verbs that only say a goal follows ("we want to track orders"): the goal starts at the next verb. */
const WANTING = new Set(['want', 'wants', 'need', 'needs', 'wish', 'wishes', 'like', 'hope', 'hopes']);
/** What may stand before the verb of a clause that names nobody ("Build a shop", "We want to …"). */
const NOBODY = /^(?:i|we|you|please|just|also)$/;

/**
 * A clause's actor (the nouns before its first verb) and its goal (that verb, base form, and the
 * rest); `unnamed` when nobody is named (an imperative, "I" or "we"): the user, unless an earlier
 * clause named someone.
 */
function needOf(terms: Term[]): { actor: string | null; unnamed: boolean; goal: string } | null {
  const first = terms.findIndex(isVerb);
  if (first < 0) return null;
  let at = first;
  if (WANTING.has(terms[at]!.normal) && terms[at + 1]?.normal === 'to') {
    const next = terms.findIndex((t, i) => i > first + 1 && isVerb(t));
    if (next > 0) at = next;
  }
  const before = terms.slice(0, first);
  const subject = before.filter(isNoun);
  const actor =
    subject.length > 0
      ? clip(
          subject.map((t, i) => (i === subject.length - 1 ? singular(t.normal) : t.normal)).join(' '),
          QUOTED.role,
        )
      : null;
  const rest = terms
    .slice(at + 1)
    .map((t) => t.text)
    .join(' ');
  const goal = `${infinitive(terms[at]!)} ${rest}`
    .replace(POSSESSIVE, 'my')
    .replace(/\s+/g, ' ')
    .replace(/[\s.,;:!]+$/, '')
    .trim();
  return { actor, unnamed: before.every((t) => NOBODY.test(t.normal)), goal };
}

interface TaggedSentence {
  text: string;
  terms: Term[];
}

/** Where "so that" / "in order to" starts in a sentence's terms (-1: nowhere), and how many terms it takes. */
function benefitAt(terms: Term[]): [number, number] {
  for (let i = 0; i < terms.length - 1; i++) {
    if (terms[i]!.normal === 'so' && terms[i + 1]!.normal === 'that') return [i, 2];
    if (terms[i]!.normal === 'in' && terms[i + 1]!.normal === 'order' && terms[i + 2]?.normal === 'to')
      return [i, 3];
  }
  return [-1, 0];
}

/** A sentence's clauses: split after a comma or a semicolon; a part without a verb stays with the one before. */
function clausesOf(terms: Term[]): Term[][] {
  const clauses: Term[][] = [];
  let current: Term[] = [];
  const close = () => {
    if (current.length === 0) return;
    if (clauses.length > 0 && !current.some(isVerb)) clauses[clauses.length - 1]!.push(...current);
    else clauses.push(current);
    current = [];
  };
  for (const term of terms) {
    current.push(term);
    if (/[,;:]/.test(term.post ?? '')) close();
  }
  close();
  return clauses;
}

/** Who needs what in a brief: "As a …" sentences, and clauses "<actor> <verb> …" (a clause with no actor keeps the last one). */
export function needsOf(brief: string): Need[] {
  const needs: Need[] = [];
  let actor: string | null = null;
  // One parse of the whole brief (the tagger is the costly part); clauses are found in its terms.
  for (const sentence of nlp(brief).json() as TaggedSentence[]) {
    const form = readStory({ title: '', description: sentence.text, acceptance_criteria: '' });
    if (form.storyForm && form.role) {
      actor = form.role;
      for (const action of form.actions) needs.push({ actor, action, benefit: form.benefit });
      continue;
    }
    const [at, length] = benefitAt(sentence.terms);
    const body = at < 0 ? sentence.terms : sentence.terms.slice(0, at);
    const benefit =
      at < 0
        ? null
        : sentence.terms
            .slice(at + length)
            .map((t) => t.text)
            .join(' ')
            .replace(PRONOUN_SUBJECT, 'I ')
            .replace(/[.\s]+$/, '');
    const value = benefit === null ? null : clip(benefit, QUOTED.benefit);
    const found: Need[] = [];
    for (const clause of clausesOf(body)) {
      while (clause[0] && /^(?:and|or|but|while|also|then)$/i.test(clause[0].normal)) clause.shift();
      const need = needOf(clause);
      if (!need || need.goal.split(' ').length < 2) continue;
      actor = need.actor ?? actor ?? (need.unnamed ? 'user' : null);
      if (!actor) continue;
      for (const action of actionsOf(need.goal)) found.push({ actor, action, benefit: null });
    }
    // "so that …" belongs to the clause it closes, the sentence's last one.
    const last = found.at(-1);
    if (last && value) for (const n of found) if (n.actor === last.actor) n.benefit = value;
    needs.push(...found);
  }
  return needs;
}

interface FollowUp {
  /** The kind of goal it is itself: not offered around a goal of that kind. */
  kind?: VerbKind;
  phrase: (topic: string, goal: string) => string;
  /** Its value, when the kind of its verb does not say it. */
  benefit?: string;
  /** Its criteria (success, then failure), when the ones read from its phrase would miss the point. */
  criteria?: (actor: string, topic: string, goal: string) => string[];
}

const changes = (topic: string) => `my ${topic} ${isPlural(topic) ? 'change' : 'changes'}`;

/**
 * The follow-ups a team usually needs around a goal, in the order they are offered: seeing, changing
 * and hearing of what it acts on, its failure path, removing and finding it, the goal on a phone,
 * exporting, the history, the goal without a mouse or a screen, sharing and restoring. Twelve, each of
 * a different kind when it has one and each worded differently: skipping the one of the goal's own
 * kind and the one that may read like the goal itself still leaves ten, so one goal fills any draft.
 */
const FOLLOW_UPS: FollowUp[] = [
  { kind: 'view', phrase: (t) => `view my ${t}` },
  { kind: 'edit', phrase: (t) => `change my ${t}` },
  {
    phrase: (t) => `get notified about changes to my ${t}`,
    benefit: 'I hear of them without having to check',
    criteria: (a, t) => [
      `Given I am ${a} following my ${t}, When ${changes(t)}, Then I get notified, And the notification says what changed`,
      `Given I turned notifications about my ${t} off, When ${changes(t)}, Then I am not notified`,
    ],
  },
  {
    phrase: (_, g) => `get clear feedback when I cannot ${g}`,
    benefit: 'I know what went wrong and how to put it right',
    criteria: (a, _, g) => [
      `Given I am ${a} and something I give is missing or invalid, When I try to ${g}, Then I see what went wrong in plain words, And how to put it right`,
      `Given a service it relies on is unavailable, When I try to ${g}, Then I am told to try again later, And nothing is left half done`,
    ],
  },
  { kind: 'delete', phrase: (t) => `remove my ${t}` },
  { kind: 'search', phrase: (t) => `find my ${t}` },
  { phrase: (_, g) => `${g} on my phone`, benefit: 'I can do it wherever I am' },
  { kind: 'export', phrase: (t) => `export my ${t}` },
  { phrase: (t) => `see the history of my ${t}`, benefit: 'I know what changed, when and by whom' },
  {
    phrase: (_, g) => `${g} with a keyboard or a screen reader`,
    benefit: 'I can do it whatever my abilities',
  },
  { kind: 'send', phrase: (t) => `share my ${t}` },
  { phrase: (t) => `restore my ${t}`, benefit: 'a mistake is never final' },
];

/** How long a drafted story's title gets: a longer goal is cut at a word boundary. */
const TITLE = 120;

/**
 * How much of a goal or a topic a follow-up quotes: the longest wording around it takes 35 characters,
 * so a follow-up's title shows its wording whole (cut, two follow-ups of a long goal could read the same).
 */
const FOLLOWED = TITLE - 40;

/** Follow-ups of a kind of goal before the others (signing in needs a way back in). */
const FIRST_FOLLOW_UPS: Partial<Record<VerbKind, FollowUp[]>> = {
  login: [{ phrase: () => 'reset my password', benefit: 'I can get back in when I forget it' }],
};

/** What a kind of goal is usually about, for a goal that names nothing ("log in", "check out"). */
const TOPIC_OF_KIND: Partial<Record<VerbKind, string>> = {
  login: 'account',
  pay: 'orders',
  book: 'bookings',
  cancel: 'bookings',
  send: 'messages',
};

/** Words that name no thing a follow-up could be about ("log in", "fill it out"). */
const NO_THING =
  /^(?:in|out|up|on|off|down|over|back|away|around|through|it|them|this|that|these|those|me|us|you|him|her|my|our|your|their|his|the|an?|something|stuff|things?)$/i;

/**
 * What a goal's follow-ups are about: the thing it acts on ("notified about my classes" -> "classes"),
 * else what its kind of goal is usually about, else the user's account.
 */
function topicOf(action: Action): string {
  const thing = action.thing.replace(/^.*\b(?:my|our|your|their|his|her|the|an?)\s+/i, '').trim();
  const named = words(thing);
  if (named.length > 0 && /\p{L}/u.test(thing) && !NO_THING.test(named[0]!) && !NO_THING.test(named.at(-1)!))
    return thing;
  const kind = verbKind(action.verb);
  return (kind && TOPIC_OF_KIND[kind]) ?? 'account';
}

/** The follow-ups of each goal, the first of every goal before the second of any (goals share a draft). */
function derived(needs: Need[]): Need[] {
  const lists = needs.map((n) => {
    const kind = verbKind(n.action.verb);
    const topic = clip(topicOf(n.action), FOLLOWED);
    const goal = clip(n.action.phrase.replace(/[.\s]+$/, ''), FOLLOWED);
    return [...((kind && FIRST_FOLLOW_UPS[kind]) ?? []), ...FOLLOW_UPS]
      .filter((f) => !f.kind || f.kind !== kind)
      .map((f) => ({
        actor: n.actor,
        action: actionsOf(f.phrase(topic, goal))[0]!,
        benefit: f.benefit ?? null,
        derived: true,
        criteria: f.criteria?.(`${article(n.actor)} ${n.actor}`, topic, goal),
      }));
  });
  const out: Need[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++)
    for (const list of lists) if (list[i]) out.push(list[i]!);
  return out;
}

function story(need: Need): DraftStory {
  const { actor, action } = need;
  const benefit = need.benefit ?? likelyBenefit(action) ?? '[the value it brings, to be confirmed]';
  const phrase = action.phrase.replace(/[.\s]+$/, '');
  const description =
    `As ${article(actor)} ${actor}, I want to ${phrase}, so that ${benefit.replace(/[.\s]+$/, '')}.` +
    (need.derived ? '\n\nNot in the brief as such: a follow-up its stories usually need.' : '');
  return {
    title: clip(capitalize(phrase), TITLE),
    description,
    acceptance_criteria: need.criteria
      ? need.criteria.map((c) => `- ${c}`).join('\n')
      : criteriaText({ title: phrase, description }),
  };
}

/**
 * The goal of a brief that states none a clause can carry ("Checkout", "A booking app for a yoga
 * studio"): its first sentence, as the goal when it starts with a verb, else as what the user uses.
 */
function plainNeed(brief: string): Need {
  const first = clip((sentences(brief)[0] ?? '').replace(/[\s.;:!,]+$/, ''), QUOTED.phrase);
  const verb = first.split(/\s+/)[0] ?? '';
  const goal = isFeatureVerb(verb) ? decapitalize(first) : `use ${decapitalize(first)}`.trim();
  return { actor: 'user', action: actionsOf(goal)[0]!, benefit: null };
}

/**
 * Exactly `count` stories from a non-empty brief: one per actor and goal the brief states (in its
 * order), then, when it states fewer, the follow-ups its goals usually need (ten at least for every
 * goal, so one goal fills a draft). A brief with no clause "<actor> <verb> …" (a title, a noun) is
 * read as one goal. Each title once.
 */
export function draftStories(brief: string, count = 3): Drafts {
  const wanted = Math.min(LIMITS.drafts, Math.max(1, count));
  const stated = needsOf(brief);
  if (stated.length === 0) stated.push(plainNeed(brief));
  const seen = new Set<string>();
  const stories: DraftStory[] = [];
  const add = (needs: Need[]) => {
    for (const need of needs) {
      if (stories.length >= wanted) return;
      const drafted = story(need);
      const key = titleKey(drafted.title);
      if (seen.has(key)) continue;
      seen.add(key);
      stories.push(drafted);
    }
  };
  add(stated);
  // Only the goals drafted are followed up: a goal left out for want of room brings no follow-up in.
  if (stories.length < wanted) add(derived(stated.slice(0, wanted)));
  return { stories };
}
