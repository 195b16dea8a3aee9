/**
 * Stops what a test started, step by step in order. A step still running after `slowMs` is named on
 * stderr (and left to finish): a teardown that outlives its hook's timeout says where it stood.
 */
export async function stopInSteps(
  what: string,
  steps: ReadonlyArray<readonly [name: string, step: () => unknown]>,
  slowMs = 10_000,
): Promise<void> {
  for (const [name, step] of steps) {
    const started = Date.now();
    const slow = setTimeout(
      () => process.stderr.write(`${what}: stopping "${name}" has taken ${Date.now() - started} ms so far\n`),
      slowMs,
    );
    slow.unref();
    try {
      await step();
    } finally {
      clearTimeout(slow);
    }
  }
}
