import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@pp/db';
import { OAuthState } from './entities/index.ts';

export function createOAuthState(
  em: EntityManager,
  data: { provider: string; codeVerifier: string; browserHash: string },
  now: Date,
  ttlSeconds: number,
): OAuthState {
  return em.create(OAuthState, {
    id: randomUUID(),
    ...data,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
  });
}

/**
 * Takes the state out in one statement, so two callbacks with the same state cannot both succeed;
 * an expired or unknown one, or one another browser started, gives undefined (and stays for the
 * browser that started it). Expired ones are left to the background sweep.
 */
export async function consumeOAuthState(
  em: EntityManager,
  state: { id: string; provider: string; browserHash: string },
  now: Date,
): Promise<string | undefined> {
  const rows = (await em.getConnection().execute(
    `delete from oauth_states where id = ? and provider = ? and browser_hash = ? and expires_at > ?
     returning code_verifier`,
    [state.id, state.provider, state.browserHash, now],
  )) as Array<{ code_verifier: string }>;
  return rows[0]?.code_verifier;
}

/** Deletes at most `batch` states expired at `now`; how many. */
export async function deleteExpiredOAuthStates(em: EntityManager, now: Date, batch: number): Promise<number> {
  const rows = await em.getConnection().execute(
    `delete from oauth_states where id in (
         select id from oauth_states where expires_at <= ? limit ? for update skip locked
       ) returning id`,
    [now, batch],
  );
  return (rows as unknown[]).length;
}
