import nlp from 'compromise';
import { criteriaText } from './criteria.ts';
import { likelyBenefit } from './improve.ts';
import type { DraftStory } from './split.ts';
import { actionsOf, readStory, type Action } from './story-form.ts';
import { article, baseVerb, capitalize, clip } from './text.ts';

export interface Drafts {
  stories: DraftStory[];
}

interface Need {
  actor: string;
  action: Action;
  benefit: string | null;
  derived?: boolean;
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

/** A clause's actor (the nouns before its first verb) and its goal (that verb, base form, and the rest). */
function needOf(terms: Term[]): { actor: string | null; goal: string } | null {
  const at = terms.findIndex(isVerb);
  if (at < 0) return null;
  const subject = terms.slice(0, at).filter(isNoun);
  const actor =
    subject.length > 0
      ? subject.map((t, i) => (i === subject.length - 1 ? singular(t.normal) : t.normal)).join(' ')
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
  return { actor, goal };
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
    const found: Need[] = [];
    for (const clause of clausesOf(body)) {
      while (clause[0] && /^(?:and|or|but|while|also|then)$/i.test(clause[0].normal)) clause.shift();
      const need = needOf(clause);
      if (!need || need.goal.split(' ').length < 2) continue;
      actor = need.actor ?? actor;
      if (!actor) continue;
      for (const action of actionsOf(need.goal)) found.push({ actor, action, benefit: null });
    }
    // "so that …" belongs to the clause it closes, the sentence's last one.
    const last = found.at(-1);
    if (last && benefit) for (const n of found) if (n.actor === last.actor) n.benefit = benefit;
    needs.push(...found);
  }
  return needs;
}

/** Follow-ups a team usually needs around a thing the brief names (seeing it, changing it, hearing of it). */
function derived(needs: Need[]): Need[] {
  const out: Need[] = [];
  for (const n of needs) {
    if (!n.action.thing) continue;
    for (const verb of ['view', 'change', 'get notified about']) {
      if (n.action.verb === verb) continue;
      const phrase = `${verb} my ${n.action.thing}`;
      out.push({ actor: n.actor, action: actionsOf(phrase)[0]!, benefit: null, derived: true });
    }
  }
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
    title: clip(capitalize(phrase), 120),
    description,
    acceptance_criteria: criteriaText({ title: phrase, description }),
  };
}

/**
 * `count` stories from a brief: one per actor and goal the brief states (in its order), then, when it
 * states fewer, the follow-ups its goals usually need. Fewer than `count` only when the brief names no
 * goal at all.
 */
export function draftStories(brief: string, count = 3): Drafts {
  const stated = needsOf(brief);
  const seen = new Set<string>();
  const stories: DraftStory[] = [];
  for (const need of [...stated, ...derived(stated)]) {
    const key = `${need.actor}|${need.action.phrase.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    stories.push(story(need));
    if (stories.length >= count) break;
  }
  return { stories };
}
