import { inSteps, type Step } from '@pp/async';

/**
 * Stops what a test started, step by step in order. A step still running after `slowMs` is named on
 * stderr (and left to finish): a teardown that outlives its hook's timeout says where it stood.
 */
export function stopInSteps(what: string, steps: ReadonlyArray<Step>, slowMs = 10_000): Promise<void> {
  return inSteps(steps, { slowMs, onSlow: slowStepOnStderr(what) });
}

/** Writes a slow step of `what` on stderr (a test's output keeps it when its logs are silent). */
export const slowStepOnStderr =
  (what: string) =>
  (name: string, elapsedMs: number): void => {
    process.stderr.write(`${what}: stopping "${name}" has taken ${elapsedMs} ms so far\n`);
  };
