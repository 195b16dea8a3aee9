import { withUniqueAs } from '@pp/db';
import { ConflictError } from '@pp/http';
import { enqueue } from '@pp/events';
import { nameFromEmail } from '../../domain/email.ts';
import type { SocialProfile } from '../../domain/social-profile.ts';
import {
  createUser,
  findLinkedAccount,
  findUserByEmail,
  findUserById,
  linkAccount,
} from '../../db/user.repository.ts';
import type { User } from '../../db/entities/index.ts';
import { OAuthFailedError, UnverifiedEmailError } from '../../errors.ts';
import { SOURCE, type IdentityContext } from './context.ts';

/**
 * The account a provider identity belongs to: the one already linked to it; else the account with
 * the same email when the provider has verified that email (it gets linked); else a new account.
 * Changes are persisted but not flushed: the caller commits them with the access token.
 */
export async function findOrCreateSocialUser(
  ctx: IdentityContext,
  provider: string,
  profile: SocialProfile,
): Promise<User> {
  const now = ctx.now();
  const linked = await findLinkedAccount(ctx.em, provider, profile.subject);
  if (linked) {
    const user = await findUserById(ctx.em, linked.userId);
    if (user) return user;
  }
  if (!profile.email)
    throw new OAuthFailedError('The sign-on provider did not share an email address', 'oauth_email_missing');
  const existing = await findUserByEmail(ctx.em, profile.email);
  if (existing) {
    // Linking on an unverified address would let anyone claim an account by typing its email at a provider.
    if (!profile.emailVerified) throw new UnverifiedEmailError();
    linkAccount(ctx.em, existing, provider, profile.subject, profile.email, now);
    existing.emailVerified = true;
    existing.updatedAt = now;
    return existing;
  }
  const user = createUser(
    ctx.em,
    {
      email: profile.email,
      name: profile.name ?? nameFromEmail(profile.email),
      emailVerified: profile.emailVerified,
    },
    now,
  );
  linkAccount(ctx.em, user, provider, profile.subject, profile.email, now);
  enqueue(
    ctx.em,
    'user.created',
    { user: { id: user.id, email: user.email, name: user.name } },
    { source: SOURCE },
  );
  return user;
}

/** Flushes a sign-on; two first sign-ins of one person racing each other end in a conflict, not a 500. */
export const commitSignOn = (ctx: IdentityContext) =>
  withUniqueAs(
    () => new ConflictError('This account was just created by another sign-on; try again', 'duplicate'),
    () => ctx.em.flush(),
  );
