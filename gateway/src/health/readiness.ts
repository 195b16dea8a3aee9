import type { ServiceName } from '@pp/config';
import type { ReadinessCheck } from '@pp/http';

/** Each unit is ready when its own /readyz says so (its database and broker included). */
export function unitReadiness(
  urls: Record<ServiceName, string>,
  timeoutMs: number,
): Record<string, ReadinessCheck> {
  return Object.fromEntries(
    Object.entries(urls).map(([unit, url]) => [
      unit,
      async () => {
        const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
        await res.body?.cancel();
        if (res.status !== 200) throw new Error(`${unit} answered ${res.status}`);
      },
    ]),
  );
}
