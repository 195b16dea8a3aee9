import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@pp/db';
import { LinkedAccount, User } from './entities/index.ts';

export const findUserById = (em: EntityManager, id: string) => em.findOne(User, { id });
export const findUserByEmail = (em: EntityManager, email: string) => em.findOne(User, { email });
/** The user as the database has it now, whatever this entity manager read before. */
export const reloadUser = (em: EntityManager, id: string) => em.findOne(User, { id }, { refresh: true });
/** Whether the user's password is still the one with this hash (it is cleared when a provider takes the account back). */
export const hasPasswordHash = async (em: EntityManager, id: string, passwordHash: string) =>
  (await em.count(User, { id, passwordHash })) > 0;

export function createUser(
  em: EntityManager,
  data: { email: string; name: string; passwordHash?: string | null; emailVerified: boolean },
  now: Date,
): User {
  return em.create(User, {
    id: randomUUID(),
    email: data.email,
    name: data.name,
    passwordHash: data.passwordHash ?? null,
    emailVerified: data.emailVerified,
    createdAt: now,
    updatedAt: now,
  });
}

export const findLinkedAccount = (em: EntityManager, provider: string, subject: string) =>
  em.findOne(LinkedAccount, { provider, subject });

/** Removes every provider identity linked to the user; how many there were. */
export const unlinkAccounts = (em: EntityManager, userId: string) =>
  em.nativeDelete(LinkedAccount, { userId });

export function linkAccount(
  em: EntityManager,
  user: User,
  provider: string,
  subject: string,
  email: string | undefined,
  now: Date,
) {
  return em.create(LinkedAccount, {
    id: randomUUID(),
    userId: user.id,
    provider,
    subject,
    email: email ?? null,
    createdAt: now,
  });
}
