/**
 * The faults the run injects, one at a time: each does something to the system and later undoes it
 * (or, for a kill, waits until the launcher has restarted what was killed).
 */
import type { Restartable } from './dependencies.ts';

export interface Fault {
  name: string;
  /** How long the fault lasts before restore(). */
  holdMs: number;
  /** Whether /readyz must name something down while it lasts (a dependency every unit needs is gone). */
  outage: boolean;
  inject(): Promise<void>;
  /** Undoes it; resolves once what it stopped is back (a server started, a unit running again). */
  restore(): Promise<void>;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Stops every server of a dependency (a clean stop), and starts them again after `holdMs`. */
export function stopServers(name: string, servers: Restartable[], holdMs: number): Fault {
  return {
    name,
    holdMs,
    outage: true,
    inject: async () => void (await Promise.all(servers.map((s) => s.stop()))),
    restore: async () => void (await Promise.all(servers.map((s) => s.start()))),
  };
}

export interface UnitProcess {
  name: string;
  pid: number | undefined;
  /** SIGKILL; the launcher restarts it by itself, as after a crash. */
  kill(): Promise<void>;
}

/**
 * SIGKILLs one process of each unit named (one replica each, the gateway's included); the launcher
 * restarts them by itself. restore() waits, bounded, until each has a new process.
 */
export function killUnits(name: string, processes: () => UnitProcess[], units: readonly string[]): Fault {
  let killed: UnitProcess[] = [];
  let before: UnitProcess[] = [];
  const runningOf = (list: UnitProcess[], unit: string, without: UnitProcess[] = []) =>
    list.filter((p) => p.name === unit && p.pid && !without.some((k) => k.pid === p.pid)).length;
  return {
    name,
    holdMs: 0,
    outage: false,
    async inject() {
      before = processes();
      killed = units.flatMap((unit) => before.find((p) => p.name === unit && p.pid) ?? []);
      await Promise.all(killed.map((p) => p.kill()));
    },
    async restore() {
      const deadline = Date.now() + 60_000;
      // Back: as many processes of each unit as before, none of them a killed one.
      const back = () => {
        const now = processes();
        return killed.every((k) => runningOf(now, k.name, killed) === runningOf(before, k.name));
      };
      while (!back() && Date.now() < deadline) await pause(100);
      if (!back())
        throw new Error(`${name}: the launcher did not restart ${killed.map((k) => k.name).join(', ')}`);
    },
  };
}
