import { inTurn, type EntityManager } from '@pp/db';

/**
 * Work that makes or revokes an account's tokens, in turn with the other such work of that account:
 * a burst of new tokens stops at the limit, and a token made while a sign-on revokes the account's
 * tokens is made either before (and revoked with them) or after (and sees what the sign-on changed).
 */
export const inTokensTurn = <T>(em: EntityManager, userId: string, work: (tx: EntityManager) => Promise<T>) =>
  inTurn(em, `tokens-of:${userId}`, work);
