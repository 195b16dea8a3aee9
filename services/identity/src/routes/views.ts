import type { Token, User } from '../db/entities/index.ts';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export const userView = (user: User) => ({
  id: user.id,
  email: user.email,
  name: user.name,
  email_verified: user.emailVerified,
  created_at: user.createdAt.toISOString(),
});

export const tokenView = (token: Token) => ({
  id: token.id,
  name: token.name,
  kind: token.kind,
  prefix: token.prefix,
  created_at: token.createdAt.toISOString(),
  expires_at: iso(token.expiresAt),
  last_used_at: iso(token.lastUsedAt),
});

/** The answer of register, login and social sign-on. */
export const authView = (result: { user: User; token: Token; secret: string }) => ({
  user: userView(result.user),
  token: result.secret,
  token_type: 'Bearer' as const,
  expires_at: iso(result.token.expiresAt),
});
