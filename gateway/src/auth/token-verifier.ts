import { hash } from 'node:crypto';
import { z } from 'zod';
import { ServiceUnavailableError } from '@pp/http';
import type { ServiceClient } from '@pp/http-client';
import type { CachedIdentity, TokenCache } from './token-cache.ts';

/** Only strings shaped like our tokens are worth asking about. */
const TOKEN_SHAPE = /^pp_(access|api|mcp)_[A-Za-z0-9_-]{43}$/;

const introspection = z.discriminatedUnion('active', [
  z.object({ active: z.literal(false) }),
  z.object({
    active: z.literal(true),
    identity: z.object({
      sub: z.string(),
      kind: z.literal('user'),
      name: z.string().optional(),
      email: z.string().optional(),
      token_kind: z.enum(['access', 'api', 'mcp']),
      token_id: z.string(),
    }),
    expires_at: z.string().nullable(),
  }),
]);

export interface TokenVerifier {
  /** The identity behind a bearer token, or undefined when it is not valid. Throws 503 when identity cannot be asked. */
  verify(token: string): Promise<CachedIdentity | undefined>;
  /**
   * What is known of the token without asking anyone (a token of the wrong shape is known to be
   * invalid); undefined when only `verify` can tell. Lets the hot path skip a promise.
   */
  known?(token: string, connection?: object): { identity: CachedIdentity | undefined } | undefined;
}

/**
 * Bearer tokens are checked with the identity service once, then served from the cache; concurrent
 * requests with the same new token share one introspection call.
 */
export function createTokenVerifier(identity: ServiceClient, cache: TokenCache): TokenVerifier {
  const inFlight = new Map<string, Promise<CachedIdentity | undefined>>();

  async function introspect(token: string, key: string): Promise<CachedIdentity | undefined> {
    const answer = introspection.safeParse(
      await identity.callOk({
        url: '/internal/tokens/introspect',
        method: 'POST',
        data: { token },
        idempotent: true,
      }),
    );
    // An answer we cannot read is identity being unwell, not the client's fault.
    if (!answer.success)
      throw new ServiceUnavailableError('Sign-in cannot be checked right now', 'identity_unavailable');
    const body = answer.data;
    if (!body.active) {
      cache.setInvalid(key);
      return undefined;
    }
    const found: CachedIdentity = { ...body.identity };
    cache.setValid(key, found, body.identity.token_id, body.expires_at ? Date.parse(body.expires_at) : null);
    return found;
  }

  // A kept-alive connection sends the same token request after request: its hash is remembered for
  // as long as the connection lives, so the hot path hashes a token once per connection.
  const lastKey = new WeakMap<object, { token: string; key: string }>();
  const keyOf = (token: string, connection?: object) => {
    const last = connection && lastKey.get(connection);
    if (last && last.token === token) return last.key;
    const key = hash('sha256', token, 'base64url');
    if (connection) lastKey.set(connection, { token, key });
    return key;
  };

  const INVALID = { identity: undefined };
  const known = (token: string, connection?: object) =>
    TOKEN_SHAPE.test(token) ? cache.get(keyOf(token, connection)) : INVALID;

  return {
    known,
    async verify(token) {
      const cached = known(token);
      if (cached) return cached.identity;
      const key = hash('sha256', token, 'base64url');
      let pending = inFlight.get(key);
      if (!pending) {
        pending = introspect(token, key).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
  };
}
