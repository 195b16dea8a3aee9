import { useEffect, useState } from 'preact/hooks';
import { de } from './de.ts';
import { en, type Catalog } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';

export type { Catalog } from './en.ts';

/**
 * The room's text, in the language of the page: one catalog per language (plain objects typed by
 * the English one, so a key missing from any of them fails the typecheck). Chosen from the browser's
 * languages unless the person picked one in the page (kept in the browser).
 */
export const CATALOGS = { en, de, fr, es } satisfies Record<string, Catalog>;
export type Lang = keyof typeof CATALOGS;
export const LANGS = Object.keys(CATALOGS) as Lang[];
/** Each language by its own name, for the switch. */
export const LANG_NAMES: Record<Lang, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
};

const KEY = 'pp.lang';
const isLang = (l: unknown): l is Lang => typeof l === 'string' && (LANGS as string[]).includes(l);

/** The language kept from the switch, else the first of the browser's that the room speaks, else English. */
export function pickLang(kept: string | null, browser: readonly string[]): Lang {
  if (isLang(kept)) return kept;
  for (const tag of browser) {
    const base = String(tag ?? '')
      .toLowerCase()
      .split('-')[0];
    if (isLang(base)) return base;
  }
  return 'en';
}

function keptLang(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

let current: Lang =
  typeof navigator === 'undefined'
    ? 'en'
    : pickLang(keptLang(), navigator.languages ?? [navigator.language ?? 'en']);
const listeners = new Set<(l: Lang) => void>();

/** The catalog of the page's language. */
export const t = (): Catalog => CATALOGS[current];
export const lang = () => current;

export function setLang(next: Lang) {
  current = next;
  try {
    localStorage.setItem(KEY, next);
  } catch {
    // Storage is off: the choice lasts as long as the page.
  }
  document.documentElement.lang = next;
  for (const l of listeners) l(next);
}

/** Re-renders the component (the app) when the language changes. */
export function useLang(): Lang {
  const [l, set] = useState(current);
  useEffect(() => {
    document.documentElement.lang = current;
    listeners.add(set);
    return () => void listeners.delete(set);
  }, []);
  return l;
}

/** The text of an API error code in the page's language, if the catalog has one. */
export function errorText(code: string): string | undefined {
  const text = (t() as unknown as Record<string, unknown>)[`error.${code}`];
  return typeof text === 'string' ? text : undefined;
}
