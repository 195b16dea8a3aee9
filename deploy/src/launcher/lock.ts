import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, isAlive } from './stale.ts';

export interface DataDirLock {
  /** Throws, naming the running launch, when another one holds the folder. */
  claim(): void;
  /** Lets the folder go, when this launch holds it. */
  release(): void;
}

/**
 * One launch per data folder. What a launch finds there from another one (the units' pids, postmaster.pid,
 * nats-server's pid file) it takes for leftovers of a launcher killed hard, and stops: a second `npm start`
 * beside a running one would stop the first one's PostgreSQL, NATS and units. So the folder is claimed
 * first, and a claim whose launcher still runs (same pid, same command line) stops the second launch.
 */
export function dataDirLock(dataDir: string): DataDirLock {
  const file = join(dataDir, 'launcher.lock');
  const token = randomUUID();
  const holder = () => {
    if (!existsSync(file)) return undefined;
    const [pid, held, command] = readFileSync(file, 'utf8').split('\n');
    return { pid: Number(pid), token: held, command };
  };
  return {
    claim() {
      const other = holder();
      if (
        other &&
        other.token !== token &&
        other.pid > 0 &&
        isAlive(other.pid) &&
        commandLine(other.pid) === other.command
      ) {
        throw new Error(
          `another launch (pid ${other.pid}) is running on ${dataDir}: stop it first, ` +
            'or give this one a data folder of its own (LAUNCHER_DATA_DIR)',
        );
      }
      writeFileSync(file, [process.pid, token, commandLine(process.pid)].join('\n'));
    },
    release() {
      if (holder()?.token === token) rmSync(file, { force: true });
    },
  };
}
