import { UNIT_OPENAPI_PATH } from '@pp/http';
import type { Logger } from '@pp/logger';
import { createServiceClient } from './service-client.ts';

/** What a unit says of its public paths: an OpenAPI document, as JSON. */
export type UnitDescription = Record<string, unknown> & {
  paths?: Record<string, Record<string, Record<string, unknown>>>;
  components?: Record<string, Record<string, unknown> | undefined>;
};

export interface UnitDescriptions {
  /** The description each unit gave last (units never heard from are missing). */
  current(): ReadonlyMap<string, UnitDescription>;
  /** Changes each time a unit says something new: callers can cache what they build from it. */
  version(): number;
  /** Asks every unit not heard from yet (all of them with `all`); resolves when each answered or failed. */
  refresh(all?: boolean): Promise<void>;
  stop(): void;
}

/**
 * Each unit describes its own public paths (`GET /internal/openapi.json`, from the zod schemas its
 * routes validate with), so that no unit needs another's code to know them. This asks each unit at
 * start, again every `retryMs` while it has not answered (a unit that becomes ready is heard within
 * moments), and every `refreshMs` after that (a unit deployed anew). A unit that is down keeps the
 * description it gave last.
 */
export function listenToUnitDescriptions(options: {
  /** Each unit's base URL, by name. */
  units: Record<string, string>;
  caller: string;
  signingKey: string;
  logger: Logger;
  retryMs?: number;
  refreshMs?: number;
  /** How long a unit may stay silent at start (units start side by side) before a warning says so. */
  startGraceMs?: number;
}): UnitDescriptions {
  const clients = new Map(
    Object.entries(options.units).map(([unit, baseURL]) => [
      unit,
      createServiceClient({
        target: unit,
        baseURL,
        caller: options.caller,
        signingKey: options.signingKey,
        logger: options.logger,
        timeoutMs: 2_000,
        // Asked again every retryMs anyway: no retries, and an open circuit lets the next ask through.
        retries: 0,
        breaker: { resetTimeoutMs: options.retryMs ?? 2_000 },
        // A unit still starting does not answer: that is no news. What is news is said below.
        failureLogLevel: 'debug',
      }),
    ]),
  );
  const heard = new Map<string, { text: string; description: UnitDescription }>();
  let version = 0;
  const startedAt = Date.now();
  const graceMs = options.startGraceMs ?? 30_000;
  /** Units the log says are silent (said once, until they answer again). */
  const silent = new Set<string>();

  async function ask(unit: string) {
    try {
      const res = await clients.get(unit)!.call<UnitDescription>({ url: UNIT_OPENAPI_PATH });
      if (res.status !== 200) throw new Error(`answered ${res.status}`);
      if (silent.delete(unit)) options.logger.info({ unit }, 'unit describes its paths');
      const text = JSON.stringify(res.data);
      if (heard.get(unit)?.text === text) return;
      heard.set(unit, { text, description: res.data });
      version++;
    } catch (err) {
      // Down: the description heard last stays. Said once, when a unit that answered stops, or when
      // one has not answered since the start's grace.
      if (silent.has(unit) || (!heard.has(unit) && Date.now() - startedAt < graceMs)) return;
      silent.add(unit);
      options.logger.warn(
        { unit, err: { message: (err as Error).message } },
        heard.has(unit)
          ? 'unit does not describe its paths any more: its last description stays'
          : 'unit has not described its paths since the start: the route table alone describes them',
      );
    }
  }
  const refresh = async (all = false) => {
    await Promise.all([...clients.keys()].filter((u) => all || !heard.has(u)).map(ask));
  };

  void refresh(true);
  const retry = setInterval(() => void refresh(false), options.retryMs ?? 2_000);
  const renew = setInterval(() => void refresh(true), options.refreshMs ?? 60_000);
  retry.unref();
  renew.unref();

  return {
    current: () => new Map([...heard].map(([unit, h]) => [unit, h.description])),
    version: () => version,
    refresh,
    stop() {
      clearInterval(retry);
      clearInterval(renew);
    },
  };
}
