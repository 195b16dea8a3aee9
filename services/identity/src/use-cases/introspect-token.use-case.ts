import { hashToken, isTokenActive, tokenKindOf } from '../domain/token.ts';
import { findTokenByHash, touchToken } from '../db/token.repository.ts';
import { findUserById } from '../db/user.repository.ts';
import type { IdentityContext } from './shared/context.ts';

export type Introspection =
  | { active: false }
  | {
      active: true;
      identity: {
        sub: string;
        kind: 'user';
        name: string;
        email: string;
        token_kind: 'access' | 'api' | 'mcp';
        token_id: string;
      };
      expires_at: string | null;
    };

/** What the gateway asks about a bearer token: whether it works now, and whose it is. */
export async function introspectToken(ctx: IdentityContext, secret: string): Promise<Introspection> {
  const kind = tokenKindOf(secret);
  if (!kind) return { active: false };
  const now = ctx.now();
  const token = await findTokenByHash(ctx.em, hashToken(secret));
  if (!token || token.kind !== kind || !isTokenActive(token, now)) return { active: false };
  const user = await findUserById(ctx.em, token.userId);
  if (!user) return { active: false };
  await touchToken(ctx.em, token.id, now);
  return {
    active: true,
    identity: {
      sub: user.id,
      kind: 'user',
      name: user.name,
      email: user.email,
      token_kind: kind,
      token_id: token.id,
    },
    expires_at: token.expiresAt ? token.expiresAt.toISOString() : null,
  };
}
