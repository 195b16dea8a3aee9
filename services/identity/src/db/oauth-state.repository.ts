import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@pp/db';
import { OAuthState } from './entities/index.ts';

export function createOAuthState(
  em: EntityManager,
  provider: string,
  codeVerifier: string,
  now: Date,
  ttlSeconds: number,
): OAuthState {
  return em.create(OAuthState, {
    id: randomUUID(),
    provider,
    codeVerifier,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
  });
}

/**
 * Takes the state out in one statement, so two callbacks with the same state cannot both succeed;
 * an expired or unknown one gives undefined. Expired leftovers are swept on the way.
 */
export async function consumeOAuthState(
  em: EntityManager,
  id: string,
  provider: string,
  now: Date,
): Promise<string | undefined> {
  const conn = em.getConnection();
  const rows = (await conn.execute(
    'delete from oauth_states where id = ? and provider = ? and expires_at > ? returning code_verifier',
    [id, provider, now],
  )) as Array<{ code_verifier: string }>;
  await conn.execute('delete from oauth_states where expires_at <= ?', [now]);
  return rows[0]?.code_verifier;
}
