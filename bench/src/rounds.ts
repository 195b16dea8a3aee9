/**
 * Measurements repeated in rounds (the machine is shared, so one round can be unlucky either way): a
 * target reads the median of its rounds, never the best, and a failure in any round counts.
 */

/** The median of `values` (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

type Figures = { name: string; rps: number; p50: number; p99: number; count: number };

/**
 * One figure for rounds of the same measurement: the median of each of rps, p50 and p99 over the
 * rounds; the counts, and every count of failures (`failed`, `non2xx`, `errors`, `failures` by status), summed over all of
 * them, so that a failure in any round fails the target.
 */
export function medianOfRounds<T extends Figures>(rounds: readonly T[]): T {
  if (rounds.length === 0) throw new Error('no rounds to take the median of');
  const of = (key: keyof T) => median(rounds.map((r) => Number(r[key])));
  const sum = (key: keyof T) => rounds.reduce((s, r) => s + Number(r[key] ?? 0), 0);
  const combined: Record<string, unknown> = {
    ...rounds[0]!,
    rps: of('rps'),
    p50: of('p50'),
    p99: of('p99'),
    count: sum('count'),
  };
  for (const key of ['failed', 'non2xx', 'errors'] as const)
    if (key in rounds[0]!) combined[key] = sum(key as keyof T);
  if ('failures' in rounds[0]!) {
    const failures: Record<string, number> = {};
    for (const r of rounds)
      for (const [status, count] of Object.entries(
        (r as { failures?: Record<string, number> }).failures ?? {},
      ))
        failures[status] = (failures[status] ?? 0) + count;
    combined.failures = failures;
  }
  return combined as T;
}

/** Runs `measure` `count` times, one after the other; resolves with every round's result in order. */
export async function inRounds<T>(count: number, measure: (round: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let round = 0; round < Math.max(1, count); round++) results.push(await measure(round));
  return results;
}
