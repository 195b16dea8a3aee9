/** One step of a sequence: its name (for the report of a slow one), and the work. */
export type Step = readonly [name: string, step: () => unknown];

export interface StepsOptions {
  /** How long a step may run before it is reported (10 s unless given). */
  slowMs?: number;
  /** Told of a step still running after `slowMs` (it is left to finish). */
  onSlow: (name: string, elapsedMs: number) => void;
}

/**
 * Runs the steps in order, each once the one before has ended. A step still running after `slowMs` is
 * reported by name: a stop that hangs says where it stood.
 */
export async function inSteps(steps: Iterable<Step>, options: StepsOptions): Promise<void> {
  const slowMs = options.slowMs ?? 10_000;
  for (const [name, step] of steps) {
    const started = Date.now();
    const slow = setTimeout(() => options.onSlow(name, Date.now() - started), slowMs);
    slow.unref();
    try {
      await step();
    } finally {
      clearTimeout(slow);
    }
  }
}
