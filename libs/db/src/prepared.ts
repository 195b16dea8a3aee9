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
 * A statement that runs both on its own and inside the entity manager's transaction: prepared (see
 * preparedRows) on its own, a plain query in the transaction (whose connection the pool does not
 * hand out). The text's `$n` placeholders are bound in either case.
 */
export async function statementRows<T>(
  em: EntityManager,
  statement: PreparedStatement,
  values: unknown[],
): Promise<T[]> {
  if (!em.isInTransaction()) return preparedRows<T>(em, statement, values);
  const ordered: unknown[] = [];
  const text = statement.text.replace(/\$(\d+)/g, (_, n: string) => {
    ordered.push(values[Number(n) - 1]);
    return '?';
  });
  return em.getConnection().execute<T[]>(text, ordered, 'all', em.getTransactionContext());
}
