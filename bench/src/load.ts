import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Requests completed. */
  count: number;
  non2xx: number;
  errors: number;
  /** The failed answers by status code (a connection error as `error`), when any failed. */
  failures?: Record<string, number>;
}

export interface LoadOptions {
  name: string;
  url: string;
  connections: number;
  durationSeconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A fresh body per request (e.g. the next participant's vote). */
  body?: () => string;
  /**
   * A fresh path and body per request, when the path changes too (votes moving from one session to
   * the next, say): `url` then names the server and the first path.
   */
  request?: () => { path: string; body: string };
}

/** Sends load with autocannon (127.0.0.1 only, bounded by duration) and keeps the figures that matter. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  if (!new URL(options.url).hostname.startsWith('127.')) throw new Error('benchmarks only target 127.0.0.1');
  const headers = { 'content-type': 'application/json', ...options.headers };
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    method: options.method ?? 'GET',
    headers,
    requests:
      options.body || options.request
        ? [
            {
              method: options.method ?? 'POST',
              headers,
              setupRequest: (req) =>
                options.request ? { ...req, ...options.request() } : { ...req, body: options.body!() },
            },
          ]
        : undefined,
  });
  return {
    name: options.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    count: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    failures: failuresOf(result.statusCodeStats, result.errors),
  };
}

/** The non-2xx answers by status, and the connection errors, of a load's result. */
function failuresOf(byStatus: Record<string, { count?: number }> | undefined, errors: number) {
  const failures: Record<string, number> = {};
  for (const [status, { count = 0 }] of Object.entries(byStatus ?? {}))
    if (!status.startsWith('2') && count > 0) failures[status] = count;
  if (errors > 0) failures.error = errors;
  return failures;
}

/** How a row's failures read: `409 × 12, 503 × 3` (empty when none failed). */
export const formatFailures = (failures: Record<string, number> | undefined) =>
  Object.entries(failures ?? {})
    .map(([status, count]) => `${status} × ${count}`)
    .join(', ');

/** A result's row under HEADER; the failed answers by status after it, when any failed. */
export function formatRow(r: LoadResult) {
  const failures = formatFailures(r.failures);
  return (
    `${r.name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}  ${String(r.non2xx + r.errors).padStart(6)}` +
    (failures ? `  (${failures})` : '')
  );
}
export const HEADER = `${'scenario'.padEnd(34)} ${'req/s'.padStart(7)}  ${'p50 ms'.padStart(6)}  ${'p99 ms'.padStart(6)}  ${'failed'.padStart(6)}`;
