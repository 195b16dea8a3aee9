import { randomUUID } from 'node:crypto';
import { LockMode, type EntityManager } from '@pp/db';
import { generateToken, TOKEN_KINDS, type TokenKind } from '../domain/token.ts';
import { Token } from './entities/index.ts';

export interface IssuedToken {
  token: Token;
  /** The secret: returned to the client once, never stored. */
  secret: string;
}

export function createToken(
  em: EntityManager,
  data: { userId: string; kind: TokenKind; name: string; expiresAt: Date | null },
  now: Date,
): IssuedToken {
  const generated = generateToken(data.kind);
  const token = em.create(Token, {
    id: randomUUID(),
    userId: data.userId,
    kind: data.kind,
    name: data.name,
    secretHash: generated.hash,
    prefix: generated.prefix,
    createdAt: now,
    expiresAt: data.expiresAt,
    lastUsedAt: null,
    revokedAt: null,
  });
  return { token, secret: generated.secret };
}

export const findTokenByHash = (em: EntityManager, secretHash: string) => em.findOne(Token, { secretHash });
export const findTokenById = (em: EntityManager, id: string) => em.findOne(Token, { id });

/** The token under its row lock (inside a transaction): changes of one token take turns. */
export const findTokenByIdLocked = (tx: EntityManager, id: string) =>
  tx.findOne(Token, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });

const workingTokens = (userId: string, now: Date, kinds: readonly TokenKind[]) => ({
  userId,
  kind: { $in: [...kinds] },
  revokedAt: null,
  $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
});
const workingPersonalTokens = (userId: string, now: Date) => workingTokens(userId, now, ['api', 'mcp']);

/** Every token of the user that still works, access tokens too. */
export const listWorkingTokens = (em: EntityManager, userId: string, now: Date) =>
  em.find(Token, workingTokens(userId, now, TOKEN_KINDS));

/** The user's API and MCP tokens that still work, newest first. */
export const listPersonalTokens = (em: EntityManager, userId: string, now: Date) =>
  em.find(Token, workingPersonalTokens(userId, now), { orderBy: { createdAt: 'desc', id: 'desc' } });

/** How many API and MCP tokens of the user still work. */
export const countPersonalTokens = (em: EntityManager, userId: string, now: Date) =>
  em.count(Token, workingPersonalTokens(userId, now));

/** Records use at most once a minute, so introspection does not write on every call. */
export async function touchToken(em: EntityManager, id: string, now: Date): Promise<void> {
  await em.nativeUpdate(
    Token,
    { id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: new Date(now.getTime() - 60_000) } }] },
    { lastUsedAt: now },
  );
}

/**
 * A batch of deleteEndedTokens: the `batch` tokens that ended first (expired or revoked, whichever came
 * first), through the index of that moment, those of them that ended before the cutoff deleted by key.
 */
export const DELETE_ENDED_TOKENS_SQL = `delete from tokens where id = any(array(
       select id from (select id, least(revoked_at, expires_at) as ended_at from tokens
                        where revoked_at is not null or expires_at is not null
                        order by least(revoked_at, expires_at) limit ?) first_ended
        where ended_at < ?)) returning id`;

/** At most `batch` tokens that ended before `before` go; how many went. */
export async function deleteEndedTokens(em: EntityManager, before: Date, batch: number): Promise<number> {
  const rows = await em.getConnection().execute(DELETE_ENDED_TOKENS_SQL, [batch, before]);
  return (rows as unknown[]).length;
}
