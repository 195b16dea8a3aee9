/**
 * The first `n` UTF-16 units of a text, one fewer when the last would be the first half of a surrogate
 * pair (an emoji): half a character is no text a column, a request or a chat tool can take.
 */
export const headOf = (text: string, n: number) =>
  text.slice(0, /[\ud800-\udbff]/.test(text[n - 1] ?? '') ? n - 1 : n);

/** A text of at most `max` UTF-16 units: cut between characters, with … for what is left out. */
export const cutText = (text: string, max: number) =>
  text.length <= max ? text : `${headOf(text, max - 1)}…`;
