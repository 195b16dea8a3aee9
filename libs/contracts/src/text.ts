import { z } from 'zod';

/**
 * The first `n` UTF-16 units of a text, one fewer when the last would be the first half of a surrogate
 * pair (an emoji): half a character is no text a column, a request or a chat tool can take.
 */
export const headOf = (text: string, n: number) =>
  text.slice(0, /[\ud800-\udbff]/.test(text[n - 1] ?? '') ? n - 1 : n);

/**
 * A text from outside (a tracker's issue, a receiver's answer) as a PostgreSQL text column and JSON can
 * keep it: each NUL character becomes `nul` (dropped by default), each lone surrogate U+FFFD. A row
 * holding either is refused by the database, and with it the whole statement it is written in.
 */
export const storableText = (text: string, nul = '') => text.replaceAll('\u0000', nul).toWellFormed();

/** A text of at most `max` UTF-16 units: cut between characters, with … for what is left out. */
export const cutText = (text: string, max: number) =>
  text.length <= max ? text : `${headOf(text, max - 1)}…`;

/**
 * How many characters a text has: Unicode code points, as a person counts them and as the OpenAPI
 * document's maxLength (JSON Schema) and PostgreSQL's varchar(n) do. A string's `length` counts
 * UTF-16 units: an emoji is two.
 */
export function characterCount(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/**
 * An input text of at most `max` characters (zod's max() would count UTF-16 units, and refuse 101
 * emoji where the documented maxLength of 200 takes them). `trim`: surrounding white space is
 * dropped first; `nfc`: the text is read in Unicode's composed form (NFC), so that the same text
 * typed two ways (é as one character, or e and an accent) is one value; `min`: at least this many
 * characters (after both).
 */
export function characters(max: number, options: { min?: number; trim?: boolean; nfc?: boolean } = {}) {
  const min = options.min ?? 0;
  let schema = z.string();
  if (options.trim) schema = schema.trim();
  if (options.nfc) schema = schema.normalize('NFC');
  // A character is one or two UTF-16 units: a text is counted only when its units do not tell.
  const tooShort = (text: string) =>
    text.length < min || (text.length < 2 * min && characterCount(text) < min);
  const tooLong = (text: string) =>
    text.length > max && (text.length > 2 * max || characterCount(text) > max);
  return schema
    .refine((text) => !tooShort(text), {
      message: `Too small: expected string to have >=${min} characters`,
      abort: true,
    })
    .refine((text) => !tooLong(text), { message: `Too big: expected string to have <=${max} characters` })
    .meta({ ...(min > 0 ? { minLength: min } : {}), maxLength: max });
}
