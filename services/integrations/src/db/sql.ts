import type { EntityManager } from '@pp/db';

/** Runs SQL (`?` placeholders) on the entity manager's connection, inside its transaction when it has one. */
export const rows = <T = Record<string, unknown>>(em: EntityManager, sql: string, params: unknown[] = []) =>
  em.getConnection().execute(sql, params, 'all', em.getTransactionContext()) as Promise<T[]>;
