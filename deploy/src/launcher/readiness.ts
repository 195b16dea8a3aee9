/** What one `/readyz` said: ready, not ready (with the names it gave), or no answer at all. */
export interface ReadyState {
  ready: boolean;
  detail: string;
}

export async function probeReady(baseUrl: string, timeoutMs = 2_000): Promise<ReadyState> {
  try {
    const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
    if (res.status === 200) return { ready: true, detail: 'ready' };
    const body = (await res.json().catch(() => ({}))) as { down?: string[]; message?: string };
    const down =
      Array.isArray(body.down) && body.down.length > 0 ? `down: ${body.down.join(', ')}` : body.message;
    return { ready: false, detail: `status ${res.status}${down ? ` (${down})` : ''}` };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    return { ready: false, detail: `no answer (${cause})` };
  }
}

export class NotReadyError extends Error {
  constructor(timeoutMs: number, report: string[]) {
    super(`not ready after ${Math.round(timeoutMs / 1000)} s:\n  ${report.join('\n  ')}`);
    this.name = 'NotReadyError';
  }
}

/**
 * Polls the gateway's /readyz until it is 200, and each of `replicaUrls` (a unit's replicas behind a
 * front, of which the gateway sees only one at a time) until it is. On timeout, asks every unit (and
 * replica not ready yet) for its own state so the error names what is not ready.
 */
export async function waitUntilReady(
  gatewayUrl: string,
  unitUrls: Record<string, string>,
  timeoutMs: number,
  isAborted: () => boolean = () => false,
  replicaUrls: Record<string, string> = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Map(Object.entries(replicaUrls));
  let gatewayReady = false;
  while (Date.now() < deadline) {
    if (isAborted()) throw new Error('aborted');
    gatewayReady ||= (await probeReady(gatewayUrl, 1_000)).ready;
    if (gatewayReady)
      for (const [name, url] of pending) if ((await probeReady(url, 1_000)).ready) pending.delete(name);
    if (gatewayReady && pending.size === 0) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  const asked = { ...unitUrls, ...Object.fromEntries(pending) };
  const states = await Promise.all(
    Object.entries(asked).map(async ([name, url]) => [name, url, await probeReady(url)] as const),
  );
  const report = states
    .filter(([, , s]) => !s.ready)
    .map(([name, url, s]) => `${name} (${url}): ${s.detail}`);
  throw new NotReadyError(
    timeoutMs,
    report.length > 0 ? report : ['every unit says ready, but the gateway does not'],
  );
}
