import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits as 43 base64url characters. */
const randomSecret = (): string => randomBytes(32).toString('base64url');

/** PKCE (RFC 7636): a 43-character verifier and its S256 challenge. */
export const createCodeVerifier = randomSecret;
export const codeChallengeOf = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');

/**
 * The secret a browser keeps in a cookie while its sign-on is at the provider, so that only that browser
 * can finish it; the state keeps its SHA-256 (256 random bits need no slower hash).
 */
export const createBrowserNonce = randomSecret;
export const browserHashOf = (nonce: string): string => createHash('sha256').update(nonce).digest('hex');

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
