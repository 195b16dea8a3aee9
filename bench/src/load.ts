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
  };
}

export const formatRow = (r: LoadResult) =>
  `${r.name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}  ${String(r.non2xx + r.errors).padStart(6)}`;
export const HEADER = `${'scenario'.padEnd(34)} ${'req/s'.padStart(7)}  ${'p50 ms'.padStart(6)}  ${'p99 ms'.padStart(6)}  ${'failed'.padStart(6)}`;
