import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** PKCE (RFC 7636): a 43-character verifier and its S256 challenge. */
export const createCodeVerifier = (): string => randomBytes(32).toString('base64url');
export const codeChallengeOf = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');

const mac = (key: string, value: string) =>
  createHmac('sha256', key).update(`oauth-state:${value}`).digest('base64url');

/** The `state` sent to the provider: the stored state's id and a signature, so a forged one is refused without a lookup. */
export const signState = (key: string, id: string): string => `${id}.${mac(key, id)}`;

export function verifyState(key: string, state: string): string | undefined {
  const [id, sig, extra] = state.split('.');
  if (!id || !sig || extra !== undefined) return undefined;
  const expected = Buffer.from(mac(key, id));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
}
