import { normalizeEmail } from '../domain/email.ts';
import { verifyPassword } from '../domain/password.ts';
import { findUserByEmail } from '../db/user.repository.ts';
import { InvalidCredentialsError } from '../errors.ts';
import type { IdentityContext } from './shared/context.ts';
import { issueAccessToken } from './shared/issue-access-token.ts';

/** Email and password in, a fresh access token out; one answer for every kind of failure. */
export async function logIn(ctx: IdentityContext, input: { email: string; password: string }) {
  const user = await findUserByEmail(ctx.em, normalizeEmail(input.email));
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok) throw new InvalidCredentialsError();
  const issued = issueAccessToken(ctx, user.id, 'login');
  await ctx.em.flush();
  return { user, ...issued };
}
