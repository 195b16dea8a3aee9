import { normalizeEmail } from '../domain/email.ts';
import { verifyPassword } from '../domain/password.ts';
import { findUserByEmail, hasPasswordHash } from '../db/user.repository.ts';
import { InvalidCredentialsError } from '../errors.ts';
import type { IdentityContext } from './shared/context.ts';
import { issueAccessToken } from './shared/issue-access-token.ts';
import { inTokensTurn } from './shared/tokens-turn.ts';

/** Email and password in, a fresh access token out; one answer for every kind of failure. */
export async function logIn(ctx: IdentityContext, input: { email: string; password: string }) {
  const user = await findUserByEmail(ctx.em, normalizeEmail(input.email));
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user?.passwordHash || !ok) throw new InvalidCredentialsError();
  const checked = user.passwordHash;
  // In the account's token turn, and only while the password checked is still the account's: a
  // sign-on taking the account back clears it and revokes the tokens in that turn, so a login checked
  // just before cannot slip a token in after the revocation.
  const issued = await inTokensTurn(ctx.em, user.id, async (tx) => {
    if (!(await hasPasswordHash(tx, user.id, checked))) throw new InvalidCredentialsError();
    return issueAccessToken({ ...ctx, em: tx }, user.id, 'login');
  });
  return { user, ...issued };
}
