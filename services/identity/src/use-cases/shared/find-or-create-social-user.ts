import { withUniqueAs } from '@pp/db';
import { ConflictError } from '@pp/http';
import { enqueue } from '@pp/events';
import { nameFromEmail } from '../../domain/email.ts';
import type { SocialProfile } from '../../domain/social-profile.ts';
import { listWorkingTokens } from '../../db/token.repository.ts';
import {
  createUser,
  findLinkedAccount,
  findUserByEmail,
  findUserById,
  linkAccount,
  reloadUser,
  unlinkAccounts,
} from '../../db/user.repository.ts';
import type { User } from '../../db/entities/index.ts';
import { OAuthFailedError, UnverifiedEmailError } from '../../errors.ts';
import { SOURCE, type IdentityContext } from './context.ts';
import { markRevoked } from './mark-revoked.ts';
import { inTokensTurn } from './tokens-turn.ts';

/** Two first sign-ins of one person racing each other end in a conflict, not a 500. */
const raced = () =>
  new ConflictError('This account was just created by another sign-on; try again', 'duplicate');

/**
 * The account a provider identity belongs to: the one already linked to it; else the account with
 * the same email when the provider has verified that email (it gets linked); else a new account.
 * Changes are persisted but not flushed: the caller commits them with the access token (except when
 * an account is taken back, see claimAccount).
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
    if (!existing.emailVerified)
      return claimAccount(ctx, existing.id, provider, profile.subject, profile.email);
    linkAccount(ctx.em, existing, provider, profile.subject, profile.email, now);
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

/**
 * A provider has verified the email of an account whose email nobody had proven (there is no email
 * verification for password accounts): whoever registered it may have typed someone else's address
 * and be waiting for them. The provider's word settles it: the account is linked, its password stops
 * working, every token issued before is revoked (`token.revoked` in the same commit, so every gateway
 * drops them at once) and the provider identities linked before are unlinked (their providers did not
 * vouch for the address, or the account would be verified). Committed here, in the account's token
 * turn, so that a token being made meanwhile is revoked too, or (a login) sees the password gone.
 */
function claimAccount(
  ctx: IdentityContext,
  userId: string,
  provider: string,
  subject: string,
  email: string,
) {
  const now = ctx.now();
  return withUniqueAs(raced, () =>
    inTokensTurn(ctx.em, userId, async (tx) => {
      // Read again in the turn: another sign-on may have verified it meanwhile (then it keeps what it has).
      const user = await reloadUser(tx, userId);
      if (!user) throw raced();
      if (!user.emailVerified) {
        await unlinkAccounts(tx, user.id);
        user.passwordHash = null;
        user.emailVerified = true;
        for (const token of await listWorkingTokens(tx, user.id, now)) markRevoked(tx, token, now);
      }
      linkAccount(tx, user, provider, subject, email, now);
      user.updatedAt = now;
      return user;
    }),
  );
}

/** Flushes a sign-on (a first sign-in racing another of the same person is a conflict, see `raced`). */
export const commitSignOn = (ctx: IdentityContext) => withUniqueAs(raced, () => ctx.em.flush());
