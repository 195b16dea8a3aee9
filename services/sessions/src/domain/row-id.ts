/** Folders, workspaces and templates have 32-bit integer keys: a larger number names none of them. */
export const MAX_ROW_ID = 2_147_483_647;

/** The id a path names, or undefined when it cannot name a row (not digits, zero, past 32 bits). */
export function rowIdOf(raw: string): number | undefined {
  if (!/^[0-9]{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id >= 1 && id <= MAX_ROW_ID ? id : undefined;
}
