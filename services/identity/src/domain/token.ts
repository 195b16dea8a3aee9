import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_KINDS = ['access', 'api', 'mcp'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** `pp_<kind>_<43 base64url chars>`: 256 random bits, so a plain SHA-256 is a safe way to store it. */
const TOKEN_PATTERN = /^pp_(access|api|mcp)_[A-Za-z0-9_-]{43}$/;

export interface GeneratedToken {
  /** Shown to the client once, never stored. */
  secret: string;
  hash: string;
  /** The first characters, kept so a user can tell tokens apart in a list. */
  prefix: string;
}

export function hashToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function generateToken(kind: TokenKind): GeneratedToken {
  const secret = `pp_${kind}_${randomBytes(32).toString('base64url')}`;
  return { secret, hash: hashToken(secret), prefix: secret.slice(0, `pp_${kind}_`.length + 4) };
}

/** The kind a well-formed token claims, or undefined for anything that cannot be one of ours. */
export function tokenKindOf(secret: string): TokenKind | undefined {
  const match = TOKEN_PATTERN.exec(secret);
  return match ? (match[1] as TokenKind) : undefined;
}

export interface TokenState {
  revokedAt?: Date | null;
  expiresAt?: Date | null;
}

export function isTokenActive(token: TokenState, now: Date): boolean {
  if (token.revokedAt) return false;
  return !token.expiresAt || token.expiresAt.getTime() > now.getTime();
}
