import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** A PKCE pair (RFC 7636, S256): the 43-character verifier kept, its challenge sent to the provider. */
export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * The `state` of an OAuth start: an id (of the stored start) and a signature over it and what the start
 * was made for (the provider, the caller), so a forged or misused state is refused without a lookup.
 * The key is derived from `secret` for this use alone (HKDF, with `salt` naming the unit).
 */
export function oauthStateSigner(secret: string, salt: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, salt, 'oauth-state', 32));
  const mac = (id: string, bound: string[]) =>
    createHmac('sha256', key)
      .update([id, ...bound].join('\n'))
      .digest('base64url');
  return {
    /** The state of a start whose id is given. */
    sign: (id: string, ...bound: string[]) => `${id}.${mac(id, bound)}`,
    /** A state for a new start, with a random id. */
    newState(...bound: string[]) {
      const id = randomBytes(24).toString('base64url');
      return { id, state: `${id}.${mac(id, bound)}` };
    },
    /** The state's id (to look up), if it is well formed. */
    idOf: (state: string) => /^([\w-]{1,64})\.[\w-]{43}$/.exec(state)?.[1],
    /** The state's id when it was signed for these values, else undefined. */
    verify(state: string, ...bound: string[]): string | undefined {
      const id = /^([\w-]{1,64})\.[\w-]{43}$/.exec(state)?.[1];
      if (!id) return undefined;
      const expected = Buffer.from(mac(id, bound));
      const given = Buffer.from(state.slice(id.length + 1));
      return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
    },
  };
}
export type OAuthStateSigner = ReturnType<typeof oauthStateSigner>;
