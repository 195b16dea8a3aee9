/** Session codes: 6 characters of an alphabet without look-alikes (no 0/O, 1/I/L). */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 6;

const CODE = /^[A-Z0-9]{6}$/;

/** Codes in paths are case-insensitive: the stored form is upper case. Undefined when it cannot be a code. */
export function normalizeCode(raw: string): string | undefined {
  const code = raw.trim().toUpperCase();
  return CODE.test(code) ? code : undefined;
}
