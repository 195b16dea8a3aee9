/**
 * The schedule: the faults one at a time under traffic, each followed by a pause for recovery; while
 * one lasts, `/readyz` is watched and what it names is noted.
 */
import { probeReady } from '../src/launcher/readiness.ts';
import type { Fault } from './faults.ts';
import type { FaultWindow } from './observations.ts';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls /readyz every half second until stopped; keeps each different answer once. */
function watchReadiness(url: string) {
  const seen = new Set<string>();
  let watching = true;
  const polling = (async () => {
    while (watching) {
      const state = await probeReady(url, 1_000);
      if (!state.ready) seen.add(state.detail);
      await pause(500);
    }
  })();
  return {
    async stop(): Promise<string[]> {
      watching = false;
      await polling;
      return [...seen];
    },
  };
}

/** Waits, bounded, until /readyz is 200 (the recovery of the last fault, before the next one). */
export async function waitReady(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await probeReady(url, 1_000)).ready) return true;
    await pause(250);
  }
  return false;
}

export async function runOne(url: string, fault: Fault, log: (line: string) => void): Promise<FaultWindow> {
  const notes: string[] = [];
  const watch = watchReadiness(url);
  const injectedAt = Date.now();
  log(`fault: ${fault.name}`);
  await fault.inject();
  await pause(fault.holdMs);
  try {
    await fault.restore();
  } catch (err) {
    notes.push((err as Error).message);
  }
  const restoredAt = Date.now();
  log(`  back after ${((restoredAt - injectedAt) / 1000).toFixed(1)} s`);
  const notReady = await watch.stop();
  if (notReady.length > 0) notes.push(`/readyz: ${notReady.slice(0, 3).join('; ')}`);
  return { name: fault.name, injectedAt, restoredAt, notes, outage: fault.outage, notReady };
}

/**
 * Every fault, `rounds` times over, one at a time. After each, a recovery pause, then a bounded wait
 * until the traffic has written again since the return (`recovered`) and /readyz is 200: the next
 * fault never starts on a system still recovering from the last one.
 */
export async function runSchedule(
  url: string,
  faults: Fault[],
  options: {
    rounds: number;
    recoveryGapMs: number;
    recovered: (since: number) => boolean;
    log: (line: string) => void;
  },
): Promise<FaultWindow[]> {
  const windows: FaultWindow[] = [];
  for (let round = 0; round < options.rounds; round++) {
    for (const fault of faults) {
      const window = await runOne(url, fault, options.log);
      windows.push(window);
      await pause(options.recoveryGapMs);
      const deadline = Date.now() + 60_000;
      while (!options.recovered(window.restoredAt) && Date.now() < deadline) await pause(250);
      if (!(await waitReady(url, Math.max(5_000, deadline - Date.now()))))
        window.notes.push('not ready 60 s after the recovery pause');
    }
  }
  return windows;
}
