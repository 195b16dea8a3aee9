import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Rows that outlived their use, deleted a batch at a time (`deleteBatch` deletes at most `size` and
 * says how many went) so that no statement holds many locks, until a batch comes back short or the
 * unit stops; then the tables named in `vacuum` are vacuumed when any went (autovacuum may be off or behind). How many went.
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
