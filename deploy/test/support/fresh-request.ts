import http from 'node:http';

/**
 * A request on a connection of its own (no keep-alive pool), so that a round-robin front in the way picks
 * a replica for it alone. Resolves with the status and the body as text; rejects when the connection fails.
 */
export function freshRequest(
  url: string,
  {
    method = 'GET',
    body,
    headers = {},
  }: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}
