import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Runs `work` in a transaction that first takes PostgreSQL's transaction-level advisory lock on `key`:
 * work under the same key takes turns across every process on the database, and each turn sees what
 * the one before it committed (under read committed, each statement reads what is committed when it
 * starts). The lock goes with the transaction. For checks such as "at most N per account" that one
 * statement cannot make safely, since a statement's count does not see inserts committed while it runs.
 * Keep the work to local SQL: the lock lasts as long as the transaction.
 */
export function inTurn<T>(
  em: EntityManager,
  key: string,
  work: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  return em.transactional(async (tx) => {
    await tx
      .getConnection()
      .execute(
        'select pg_advisory_xact_lock(hashtextextended(?, 0))',
        [key],
        'all',
        tx.getTransactionContext(),
      );
    return work(tx);
  });
}
