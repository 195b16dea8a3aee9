import { ValidationError } from '@pp/http';
import { createToken } from '../db/token.repository.ts';
import type { IdentityContext } from './shared/context.ts';

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
  const issued = createToken(
    ctx.em,
    { userId, kind: input.kind, name: input.name.trim(), expiresAt: input.expiresAt ?? null },
    now,
  );
  await ctx.em.flush();
  return issued;
}
