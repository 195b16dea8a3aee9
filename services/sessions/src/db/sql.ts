import type { EntityManager } from '@pp/db';

/** Rows of a query run in the entity manager's transaction (if any). */
export function rows<T>(em: EntityManager, query: string, params: unknown[] = []): Promise<T[]> {
  return em.getConnection().execute<T[]>(query, params, 'all', em.getTransactionContext());
}

export async function row<T>(
  em: EntityManager,
  query: string,
  params: unknown[] = [],
): Promise<T | undefined> {
  return (await rows<T>(em, query, params))[0];
}

/** Runs a statement; resolves with the number of rows it touched. */
export async function run(em: EntityManager, query: string, params: unknown[] = []): Promise<number> {
  const result = await em
    .getConnection()
    .execute<{ affectedRows: number }>(query, params, 'run', em.getTransactionContext());
  return result.affectedRows;
}

/** Raw queries hand timestamps back as text: the repositories give dates. */
export const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
export const asDateOrNull = (value: Date | string | null) => (value === null ? null : asDate(value));
