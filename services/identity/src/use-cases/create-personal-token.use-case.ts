import { LimitReachedError, ValidationError } from '@pp/http';
import { countPersonalTokens, createToken } from '../db/token.repository.ts';
import type { IdentityContext } from './shared/context.ts';
import { inTokensTurn } from './shared/tokens-turn.ts';

/** API and MCP tokens that still work, per account: enough for every tool and assistant, and a list that stays short. */
const TOKENS_PER_ACCOUNT = 100;

export interface CreatePersonalTokenInput {
  name: string;
  kind: 'api' | 'mcp';
  expiresAt?: Date;
}

/** An API or MCP token for the dashboard or an MCP client: the secret is in the answer and nowhere else. */
export async function createPersonalToken(
  ctx: IdentityContext,
  userId: string,
  input: CreatePersonalTokenInput,
) {
  const now = ctx.now();
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    throw new ValidationError({ expires_at: ['must be in the future'] });
  }
  // An account's tokens are made in turn, so that a burst of them at once stops at the limit too.
  return inTokensTurn(ctx.em, userId, async (tx) => {
    if ((await countPersonalTokens(tx, userId, now)) >= TOKENS_PER_ACCOUNT)
      throw new LimitReachedError('tokens', TOKENS_PER_ACCOUNT, 'API and MCP tokens that still work');
    return createToken(
      tx,
      { userId, kind: input.kind, name: input.name.trim(), expiresAt: input.expiresAt ?? null },
      now,
    );
  });
}
