import type { EntityManager } from '@pp/db';
import { rows } from './sql.ts';

export interface OAuthStateRow {
  id: string;
  ownerId: string;
  provider: string;
  name: string;
  /** The PKCE verifier, encrypted like credentials (bound to the state). */
  codeVerifier: string | null;
  /** The hash of the nonce the browser that started keeps in a cookie (never the nonce). */
  browserHash: string;
  expiresAt: Date;
}

export async function insertOAuthState(em: EntityManager, s: OAuthStateRow): Promise<void> {
  await rows(
    em,
    `insert into oauth_states (id, owner_id, provider, name, code_verifier, browser_hash, expires_at)
     values (?, ?, ?, ?, ?, ?, ?)`,
    [s.id, s.ownerId, s.provider, s.name, s.codeVerifier, s.browserHash, s.expiresAt],
  );
  // States nobody came back with: gone once expired (a start is rare enough to sweep them here).
  await rows(em, 'delete from oauth_states where expires_at < now()');
}

/**
 * Takes the state: it can be used once, whatever comes of it. Undefined when unknown, used or expired,
 * or brought by another browser than the one that started (the state then stays for that one).
 */
export async function takeOAuthState(
  em: EntityManager,
  id: string,
  browserHash: string,
  now: Date,
): Promise<OAuthStateRow | undefined> {
  const [found] = await rows(
    em,
    `delete from oauth_states where id = ? and browser_hash = ?
     returning id, owner_id, provider, name, code_verifier, browser_hash, expires_at`,
    [id, browserHash],
  );
  if (!found || new Date(found.expires_at as string) < now) return undefined;
  return {
    id: found.id as string,
    ownerId: found.owner_id as string,
    provider: found.provider as string,
    name: found.name as string,
    codeVerifier: (found.code_verifier as string | null) ?? null,
    browserHash: found.browser_hash as string,
    expiresAt: new Date(found.expires_at as string),
  };
}
