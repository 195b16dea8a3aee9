import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Rows that outlived their use, deleted a batch at a time (`deleteBatch` deletes at most `size` and
 * says how many went) so that no statement holds many locks, until a batch comes back short or the
 * unit stops; then the tables named in `vacuum` are vacuumed when any went (autovacuum may be off or
 * behind). How many went.
 */
export async function deleteInBatches(
  em: EntityManager,
  options: {
    /** The table, or the tables (comma-separated), the deletes empty. */
    vacuum: string;
    size: number;
    deleteBatch: (size: number) => Promise<number>;
    stopped: () => boolean;
  },
): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await options.deleteBatch(options.size);
    total += n;
    if (n < options.size || options.stopped()) break;
  }
  if (total > 0) await em.getConnection().execute(`vacuum (skip_locked) ${options.vacuum}`);
  return total;
}

/**
 * What a pruning by age sets for its statement: no read of the table whole. Without statistics
 * (autovacuum off or behind), the planner takes a condition on a time for a third of the table and
 * reads it all, where the index of that time (a BRIN one, which rows appended since its last summary
 * cost nothing) reads the old rows and the newest.
 */
export const NO_TABLE_SCANS = 'set local enable_seqscan = off';

/** `work` in a transaction whose statements are planned without reading any table whole. */
export const withoutTableScans = <T>(
  em: EntityManager,
  work: (tx: EntityManager) => Promise<T>,
): Promise<T> =>
  em.transactional(async (tx) => {
    await tx.getConnection().execute(NO_TABLE_SCANS, [], 'run', tx.getTransactionContext());
    return work(tx);
  });
