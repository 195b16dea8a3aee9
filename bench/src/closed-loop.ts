/** What a closed-loop measurement found: operations per second and latency percentiles (ms). */
export interface LatencyResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  count: number;
  failed: number;
}

/** Milliseconds to a hundredth (a single request on an idle system takes one or two). */
const hundredths = (ms: number) => Math.round(ms * 100) / 100;

/** The samples of a measurement: `time` records how long a piece of work took; `result` sums them up. */
function recorder(name: string) {
  const samples: number[] = [];
  let failed = 0;
  const started = Date.now();
  return {
    time: async <T>(work: () => Promise<T>) => {
      const begun = process.hrtime.bigint();
      const result = await work();
      samples.push(Number(process.hrtime.bigint() - begun) / 1e6);
      return result;
    },
    fail: () => void failed++,
    result(): LatencyResult {
      const elapsed = (Date.now() - started) / 1000;
      samples.sort((a, b) => a - b);
      const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
      return {
        name,
        rps: samples.length / elapsed,
        p50: hundredths(at(0.5)),
        p99: hundredths(at(0.99)),
        count: samples.length,
        failed,
      };
    },
  };
}

/**
 * Closed-loop load for operations that are more than one request (a reveal followed by a reset, say)
 * or need a different target per client: `connections` workers, each starting its next step as soon
 * as the previous one finished, for `durationSeconds`. A step times the part it measures with `time`
 * and may do unmeasured work around it; a step that throws counts as failed.
 */
export async function closedLoop(
  name: string,
  connections: number,
  durationSeconds: number,
  step: (worker: number, time: <T>(work: () => Promise<T>) => Promise<T>) => Promise<void>,
): Promise<LatencyResult> {
  const run = recorder(name);
  const deadline = Date.now() + durationSeconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      while (Date.now() < deadline) await step(worker, run.time).catch(run.fail);
    }),
  );
  return run.result();
}

/** `count` steps one after the other (single requests on an idle system); a step that throws counts as failed. */
export async function oneAtATime(
  name: string,
  count: number,
  step: (i: number, time: <T>(work: () => Promise<T>) => Promise<T>) => Promise<void>,
): Promise<LatencyResult> {
  const run = recorder(name);
  for (let i = 0; i < count; i++) await step(i, run.time).catch(run.fail);
  return run.result();
}
