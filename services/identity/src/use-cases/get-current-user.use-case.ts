import { UnauthorizedError } from '@pp/http';
import { findUserById } from '../db/user.repository.ts';
import type { IdentityContext } from './shared/context.ts';

export async function getCurrentUser(ctx: IdentityContext, userId: string) {
  const user = await findUserById(ctx.em, userId);
  // The token was valid a moment ago but its user is gone: the caller is no longer anyone.
  if (!user) throw new UnauthorizedError('This account no longer exists', 'unauthorized');
  return user;
}
