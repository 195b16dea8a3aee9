import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from './stale.ts';

/**
 * The ports chosen by the launches running on this machine. A port is free when a launch chooses it,
 * but its unit binds it only a moment later: a second launch choosing at the same time would find it
 * free too, and its own unit could take it first (and answer the first launch's readiness checks).
 * So each chosen port is recorded in a folder every launch on the machine reads (a file per port,
 * naming the process that chose it), and the others pass it over while that process lives. A process
 * lets its ports go when it exits; the files left by one that was killed are taken over, and cleared
 * by the next process to record a port.
 */
export function portReservations(dir: string = join(tmpdir(), 'planning-poker-ports')) {
  const own = new Set<string>();
  let cleanupInstalled = false;
  const releaseAll = () => {
    for (const file of own) rmSync(file, { force: true });
    own.clear();
  };
  const holderOf = (file: string): number | undefined => {
    try {
      return Number(readFileSync(file, 'utf8')) || undefined;
    } catch {
      return undefined;
    }
  };

  /** Once a process: the records of processes gone (killed, or ended without their exit handlers) go. */
  let swept = false;
  const sweep = () => {
    swept = true;
    for (const name of readdirSync(dir)) {
      const holder = holderOf(join(dir, name));
      if (holder !== undefined && !isAlive(holder)) rmSync(join(dir, name), { force: true });
    }
  };

  return {
    /**
     * Records the port as this process's; false when another live process holds it. Where the folder
     * cannot be written (another user's), the port is this process's without a record.
     */
    reserve(port: number): boolean {
      const file = join(dir, String(port));
      try {
        mkdirSync(dir, { recursive: true });
        if (!swept) sweep();
      } catch {
        return true;
      }
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          writeFileSync(file, String(process.pid), { flag: 'wx' });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return true;
          const holder = holderOf(file);
          if (holder === process.pid) return true;
          // Being written this instant (no pid yet), or held by a live process.
          if (holder === undefined || isAlive(holder)) return false;
          rmSync(file, { force: true });
          continue;
        }
        own.add(file);
        if (!cleanupInstalled) {
          cleanupInstalled = true;
          process.once('exit', releaseAll);
        }
        return true;
      }
      return false;
    },
    /** Lets go of every port this process recorded. */
    releaseAll,
  };
}

/** The machine's record, shared by every launch of this process. */
export const machinePorts = portReservations();
