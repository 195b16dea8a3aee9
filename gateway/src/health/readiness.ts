import type { ServiceName } from '@pp/config';
import { runChecks, type ReadinessCheck } from '@pp/http';

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

/**
 * The same checks answered from one shared state, refreshed at most once per `maxAgeMs` and by one
 * run at a time (hits while it runs wait for it): `/readyz` is public and unlimited, and each run
 * makes every unit check its database and broker, so a flood of hits must not become a flood of
 * checks behind the gateway.
 */
export function sharedReadiness(
  checks: Record<string, ReadinessCheck>,
  maxAgeMs = 1_000,
): Record<string, ReadinessCheck> {
  let fresh: { at: number; states: Record<string, 'ok' | 'down'> } | undefined;
  let running: Promise<Record<string, 'ok' | 'down'>> | undefined;
  const states = () => {
    if (fresh && Date.now() - fresh.at < maxAgeMs) return fresh.states;
    running ??= runChecks(checks)
      .then((result) => (fresh = { at: Date.now(), states: result.checks }).states)
      .finally(() => (running = undefined));
    return running;
  };
  return Object.fromEntries(
    Object.keys(checks).map((name) => [
      name,
      async () => {
        if ((await states())[name] !== 'ok') throw new Error(`${name} is not ready`);
      },
    ]),
  );
}
