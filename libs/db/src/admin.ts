import pg from 'pg';

/** The URL of another database on the same server. */
export function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: withDatabaseName(url, 'postgres'),
    connectionTimeoutMillis: 5_000,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Creates the database of the URL when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  await withAdminClient(url, async (client) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return;
    try {
      await client.query(`create database ${quoteIdent(name)}`);
    } catch (err) {
      // Two processes creating the same database at once: the loser sees a duplicate.
      if ((err as { code?: string }).code !== '42P04' && (err as { code?: string }).code !== '23505')
        throw err;
    }
  });
}

export async function dropDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  await withAdminClient(url, (client) =>
    client.query(`drop database if exists ${quoteIdent(name)} with (force)`),
  );
}

/**
 * Runs `work` with a connection of its own to the URL's database, opened for it and closed after: a
 * backend that has done nothing else (what `pg_stat_xact_*` then show is `work`'s alone).
 */
export async function withOwnConnection<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs one statement on the database of the URL with its own connection (benchmarks seed data with it). */
export const runStatement = (url: string, text: string, values: unknown[] = []): Promise<number> =>
  withOwnConnection(url, async (client) => (await client.query(text, values)).rowCount ?? 0);
