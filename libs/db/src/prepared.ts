import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';

export interface PreparedStatement {
  /** Unique per statement text: PostgreSQL keeps the parsed and planned statement under this name. */
  name: string;
  /** The SQL with `$1`, `$2`, ... placeholders (a number may be used more than once). */
  text: string;
}

/**
 * Runs a hot path's statement as a named prepared statement on the pool behind the entity manager:
 * each pooled connection parses and plans it once, and every later call only binds and executes. It
 * runs on its own (autocommit), never inside the entity manager's transaction. Driver errors come
 * out as MikroORM's exceptions, like every other query's.
 */
export async function preparedRows<T>(
  em: EntityManager,
  statement: PreparedStatement,
  values: unknown[],
): Promise<T[]> {
  if (em.isInTransaction())
    throw new Error(`${statement.name}: a prepared statement runs outside transactions`);
  const pool = await (em.getConnection() as PostgreSqlConnection).getNativeClient();
  try {
    const result = await pool.query({ name: statement.name, text: statement.text, values });
    return result.rows as T[];
  } catch (err) {
    throw em.getDriver().convertException(err as Error);
  }
}

/**
 * A `$n` statement as a plain query in the entity manager's transaction (whose connection the pool
 * does not hand out).
 */
function inTransaction<T>(em: EntityManager, text: string, values: unknown[]): Promise<T[]> {
  const ordered: unknown[] = [];
  const bound = text.replace(/\$(\d+)/g, (_, n: string) => {
    ordered.push(values[Number(n) - 1]);
    return '?';
  });
  return em.getConnection().execute<T[]>(bound, ordered, 'all', em.getTransactionContext());
}

/**
 * A statement that runs both on its own and inside the entity manager's transaction: prepared (see
 * preparedRows) on its own, a plain query in the transaction. The text's `$n` placeholders are bound
 * in either case.
 */
export async function statementRows<T>(
  em: EntityManager,
  statement: PreparedStatement,
  values: unknown[],
): Promise<T[]> {
  if (!em.isInTransaction()) return preparedRows<T>(em, statement, values);
  return inTransaction<T>(em, statement.text, values);
}

/**
 * A statement planned afresh each time it runs, with its values (`$n` placeholders) bound: for a
 * poll over tables that grow, where a plan kept from when they were small could go on reading them
 * whole. Runs on its own, or in the entity manager's transaction.
 */
export async function plannedRows<T>(em: EntityManager, text: string, values: unknown[]): Promise<T[]> {
  if (em.isInTransaction()) return inTransaction<T>(em, text, values);
  const pool = await (em.getConnection() as PostgreSqlConnection).getNativeClient();
  try {
    return (await pool.query({ text, values })).rows as T[];
  } catch (err) {
    throw em.getDriver().convertException(err as Error);
  }
}
