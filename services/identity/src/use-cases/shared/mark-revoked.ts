import type { EntityManager } from '@pp/db';
import { enqueue } from '@pp/events';
import type { Token } from '../../db/entities/index.ts';
import type { TokenKind } from '../../domain/token.ts';
import { SOURCE } from './context.ts';

/**
 * Revokes the token and announces `token.revoked` in the same commit (the outbox), so that every
 * gateway replica drops it from its cache.
 */
export function markRevoked(em: EntityManager, token: Token, now: Date): void {
  token.revokedAt = now;
  enqueue(
    em,
    'token.revoked',
    { token_id: token.id, user_id: token.userId, kind: token.kind as TokenKind },
    { source: SOURCE },
  );
}
