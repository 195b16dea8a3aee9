import { withUniqueAs } from '@pp/db';
import { enqueue } from '@pp/events';
import { normalizeEmail } from '../domain/email.ts';
import { hashPassword } from '../domain/password.ts';
import { createUser, findUserByEmail } from '../db/user.repository.ts';
import { EmailTakenError } from '../errors.ts';
import { SOURCE, type IdentityContext } from './shared/context.ts';
import { issueAccessToken } from './shared/issue-access-token.ts';

export interface RegisterInput {
  email: string;
  password: string;
  name: string;
}

/** A new account with a password: the user, a first access token and `user.created`, committed together. */
export async function registerUser(ctx: IdentityContext, input: RegisterInput) {
  const email = normalizeEmail(input.email);
  if (await findUserByEmail(ctx.em, email)) throw new EmailTakenError();
  const passwordHash = await hashPassword(input.password);
  const user = createUser(
    ctx.em,
    { email, name: input.name.trim(), passwordHash, emailVerified: false },
    ctx.now(),
  );
  enqueue(
    ctx.em,
    'user.created',
    { user: { id: user.id, email: user.email, name: user.name } },
    { source: SOURCE },
  );
  const issued = issueAccessToken(ctx, user.id, 'register');
  // Two registrations racing for one email: the unique index decides, the loser gets the same 409.
  await withUniqueAs(
    () => new EmailTakenError(),
    () => ctx.em.flush(),
  );
  ctx.publish();
  return { user, ...issued };
}
