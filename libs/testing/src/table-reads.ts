import { createDatabase, NO_TABLE_SCANS, withOwnConnection, type DatabaseOptions } from '@pp/db';
import { createLogger } from '@pp/logger';
import { createTestDatabase } from './infra.ts';

/**
 * What one statement read of a table: the whole-table scans it made, its index look-ups, and the rows
 * those read.
 */
export interface TableReads {
  seqScans: number;
  indexScans: number;
  rowsRead: number;
}

export interface TableReadsOptions {
  /**
   * Runs of the statement first, on the same connection (each rolled back): a named statement keeps
   * the plan it is given after its first runs, made for the tables as they were then.
   */
  warmUps?: number;
  /** What happens between the warm-ups and the run measured (the tables grown, say). */
  between?: () => Promise<void>;
  /** Statements run in the measured run's transaction before it (`set local` settings, say). */
  settings?: readonly string[];
}

/**
 * Runs one statement (`$n` placeholders, or `?` ones in order; a named one is prepared under its
 * name) on a connection of its own to the database, in a transaction rolled back after (a write
 * changes nothing), and says what it read of each of the tables named: how a statement reaches a
 * growing table (by key, or by reading it whole) shows in these counts whatever its plan's shape.
 */
export async function tableReads(
  url: string,
  statement: { text: string; values: unknown[]; name?: string },
  tables: readonly string[],
  { warmUps = 0, between, settings = [] }: TableReadsOptions = {},
): Promise<{ rows: Array<Record<string, unknown>>; rowCount: number; reads: Record<string, TableReads> }> {
  let n = 0;
  const query = {
    name: statement.name,
    text: statement.text.replace(/\?/g, () => `$${++n}`),
    values: statement.values,
  };
  return withOwnConnection(url, async (client) => {
    for (let run = 0; run < warmUps; run++) {
      await client.query('begin');
      await client.query(query);
      await client.query('rollback');
    }
    // What the warm-ups read is counted with the backend's next report, not with the run measured.
    await client.query('select pg_stat_force_next_flush()');
    await between?.();
    await client.query('begin');
    try {
      for (const setting of settings) await client.query(setting);
      const { rows, rowCount } = await client.query(query);
      const stats = await client.query<{
        relname: string;
        seq_scan: string;
        idx_scan: string | null;
        rows_read: string;
      }>(
        `select relname, seq_scan, idx_scan, coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as rows_read
           from pg_stat_xact_user_tables where relname = any($1)`,
        [tables],
      );
      const reads: Record<string, TableReads> = {};
      for (const table of tables) reads[table] = { seqScans: 0, indexScans: 0, rowsRead: 0 };
      for (const s of stats.rows)
        reads[s.relname] = {
          seqScans: Number(s.seq_scan),
          indexScans: Number(s.idx_scan ?? 0),
          rowsRead: Number(s.rows_read),
        };
      return { rows, rowCount: rowCount ?? 0, reads };
    } finally {
      await client.query('rollback');
    }
  });
}

/**
 * The tables a statement read more of than its own rows: scanned whole, or more than `atMost` rows
 * read (an empty list when it kept to its own; a test expects that, and a failure names the table).
 */
export const readsBeyond = (reads: Record<string, TableReads>, atMost: number) =>
  Object.entries(reads)
    .filter(([, r]) => r.seqScans > 0 || r.rowsRead > atMost)
    .map(([table, r]) => ({ table, ...r }));

/**
 * What a pruning by age reads of a table as a day of traffic leaves it, on a database of its own made
 * by `migrations`: `old` rows over a day old, 60,000 of the day since (what the pruning keeps), the
 * index of their time (`brinIndex`) summarized as the vacuum after each pruning does, and a hundred
 * rows since. `insert(sql, count, since)` adds `count` rows from `since` on (an SQL expression of a
 * time), a millisecond apart; `statement` runs with the cutoff a day back as its one value, planned
 * without table scans as the units plan it (`withoutTableScans`).
 */
export async function pruningReads(options: {
  unit: string;
  migrations: DatabaseOptions['migrations'];
  old: number;
  brinIndex: string;
  insert: (
    sql: (text: string, values?: unknown[]) => Promise<unknown>,
    count: number,
    since: string,
  ) => Promise<unknown>;
  statement: string;
  tables: readonly string[];
}) {
  const db = await createTestDatabase(options.unit);
  try {
    const logger = createLogger({ name: 'pruning-reads', level: 'silent' });
    await (
      await createDatabase({ url: db.url, entities: [], migrations: options.migrations, logger })
    ).close();
    await withOwnConnection(db.url, async (client) => {
      const sql = (text: string, values: unknown[] = []) => client.query(text, values);
      await options.insert(sql, options.old, "now() - interval '25 hours'");
      await options.insert(sql, 60_000, "now() - interval '20 hours'");
      await sql('select brin_summarize_new_values($1)', [options.brinIndex]);
      await options.insert(sql, 100, 'now()');
    });
    const cutoff = new Date(Date.now() - 24 * 3600_000);
    return await tableReads(db.url, { text: options.statement, values: [cutoff] }, options.tables, {
      settings: [NO_TABLE_SCANS],
    });
  } finally {
    await db.drop();
  }
}

/** JSON about as big as a story change's event (400 bytes): a BRIN range holds a couple of thousand. */
export const EVENT_SIZED_JSON = `jsonb_build_object('title', repeat('x', 400))`;
