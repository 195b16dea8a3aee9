import { stemmer } from 'stemmer';
import { FEATURE_VERBS, STOPWORDS, UMBRELLA_VERBS } from './lexicon.ts';

/** Words of a text, lower case, in order (letters, digits, inner apostrophes and hyphens). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/\p{L}[\p{L}\p{N}'’-]*|\p{N}+(?:[.,]\p{N}+)?/gu) ?? [];
}

/** The topic-bearing terms of a text: stemmed words without stopwords (what similarity compares). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    out.push(stemmer(word.replace(/['’]s$/, '')));
  }
  return out;
}

/** Sentences of a text: split after . ! ? or a line break. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Lines of a list (criteria, steps) without their bullets or numbers. */
export function listItems(text: string): string[] {
  return text
    .split(/\n+/)
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)]|\[[ x]\])\s*/i, '').trim())
    .filter((line) => line.length > 0);
}

const IRREGULAR: Record<string, string> = { does: 'do', has: 'have', goes: 'go', is: 'be', are: 'be' };

/** The base form of a verb as it may appear ("exports" -> "export", "searches" -> "search"). */
export function baseVerb(word: string): string {
  const w = word.toLowerCase();
  if (IRREGULAR[w]) return IRREGULAR[w];
  if (FEATURE_VERBS.has(w) || UMBRELLA_VERBS.has(w)) return w;
  for (const [suffix, replacement] of [
    ['ies', 'y'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['sses', 'ss'],
    ['xes', 'x'],
    ['s', ''],
  ] as const) {
    if (w.endsWith(suffix)) {
      const base = w.slice(0, -suffix.length) + replacement;
      if (FEATURE_VERBS.has(base) || UMBRELLA_VERBS.has(base)) return base;
    }
  }
  return w;
}

/** Whether a word starts a feature ("export", "exports", "manage"). */
export const isFeatureVerb = (word: string) => {
  const base = baseVerb(word);
  return FEATURE_VERBS.has(base) || UMBRELLA_VERBS.has(base);
};

/** Upper-cases the first letter. */
export const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Lower-cases the first letter unless the first word looks like a name or an acronym (two capitals). */
export const decapitalize = (text: string) =>
  /^\p{Lu}{2}/u.test(text) ? text : text.charAt(0).toLowerCase() + text.slice(1);

/**
 * Cuts a text to a length at a word boundary (at half the length when a word runs longer), never
 * between the two halves of a character outside the BMP (an emoji): the result is at most `max` long.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  let end = Math.max(cut.lastIndexOf(' '), Math.floor(max / 2));
  if (/[\uD800-\uDBFF]/.test(cut.charAt(end - 1))) end -= 1;
  return `${cut.slice(0, end).replace(/[\s,;:]+$/, '')}…`;
}

/** The first items quoted, and how many more there are (`"a", "b", "c" and 4 more`). */
export const quote = (items: readonly string[], shown = 3) =>
  items
    .slice(0, shown)
    .map((t) => `"${t}"`)
    .join(', ') + (items.length > shown ? ` and ${items.length - shown} more` : '');

/** Whether a noun phrase names several things ("invoices", "data"), for the verbs that agree with it. */
export const isPlural = (thing: string) =>
  /[^s]s$/i.test(thing.split(/\s+/).at(-1) ?? '') || /\b(data|people)$/i.test(thing);

/** "a" or "an" before a noun phrase. */
export const article = (noun: string) =>
  /^[aeiou]/i.test(noun) && !/^(?:user|uni|eu)/i.test(noun) ? 'an' : 'a';

/** A past participle good enough for outcomes ("export" -> "exported", "pay" -> "paid"). */
export function pastParticiple(verb: string): string {
  const irregular: Record<string, string> = {
    pay: 'paid',
    send: 'sent',
    buy: 'bought',
    get: 'got',
    give: 'given',
    find: 'found',
    set: 'set',
    see: 'seen',
    sell: 'sold',
    write: 'written',
    read: 'read',
    choose: 'chosen',
    split: 'split',
    put: 'put',
    make: 'made',
    log: 'logged',
    sign: 'signed',
    pin: 'pinned',
    drop: 'dropped',
    stop: 'stopped',
    plan: 'planned',
    build: 'built',
  };
  if (irregular[verb]) return irregular[verb];
  if (verb.endsWith('e')) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  return `${verb}ed`;
}

/** What makes two titles the same story: the words, in any case and spacing (the API promises each title once). */
export const titleKey = (title: string) => title.trim().replace(/\s+/g, ' ').toLowerCase();
