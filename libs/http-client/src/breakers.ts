import { EventEmitter } from 'node:events';
import CircuitBreaker from 'opossum';
import { BoundedMap } from '@pp/collections';

export interface BreakerSettings {
  /** Names the breaker (opossum's metrics and events). */
  name?: string;
  /** Failures, in percent of the calls of the rolling window, that open it (50). */
  errorThresholdPercentage?: number;
  /** Calls in the window before it may open at all (10). */
  volumeThreshold?: number;
  /** How long it stays open before one call tries the target again (5 s). */
  resetTimeoutMs?: number;
  /** The rolling window the failures are counted in (10 s). */
  rollingCountTimeoutMs?: number;
  /** Calls at once through it, beyond which it refuses (unbounded). */
  capacity?: number;
  /** An error that says nothing of the target's health (a refusal of ours): it is passed on, not counted. */
  errorFilter?: (err: unknown) => boolean;
}

/** The buckets opossum counts in: ten per rolling window. */
const BUCKETS = 10;

/** The clocks that turn the breakers' buckets, one per bucket length (see bucketClock). */
const clocks = new Map<number, EventEmitter>();

/**
 * What turns the buckets of every breaker of a process whose buckets last `ms`: one timer for all of
 * them (opossum's `rotateBucketController`), running while some breaker listens. On its own, each
 * breaker keeps a timer of its own: a unit with a breaker per endpoint would wake up for each, every
 * second.
 */
function bucketClock(ms: number): EventEmitter {
  const known = clocks.get(ms);
  if (known) return known;
  const clock = new EventEmitter();
  clock.setMaxListeners(0);
  let timer: NodeJS.Timeout | undefined;
  clock.on('newListener', (event) => {
    if (event === 'rotate') timer ??= setInterval(() => clock.emit('rotate'), ms).unref();
  });
  clock.on('removeListener', (event) => {
    if (event !== 'rotate' || clock.listenerCount('rotate') > 0 || !timer) return;
    clearInterval(timer);
    timer = undefined;
  });
  clocks.set(ms, clock);
  return clock;
}

/**
 * An opossum circuit breaker with the platform's defaults. It sets no time limit of its own: the
 * transport under it limits each call (a breaker's timeout would leave the call running). It counts
 * calls and failures only: opossum's latency percentiles (every latency of the window gathered and
 * sorted, on every failure) and its snapshot each second (the same work, per breaker, busy or idle)
 * are off, as nothing reads them; its buckets turn with those of the process's other breakers.
 */
export function circuitBreaker<A extends unknown[], R>(
  action: (...args: A) => Promise<R>,
  settings: BreakerSettings = {},
): CircuitBreaker<A, R> {
  const window = settings.rollingCountTimeoutMs ?? 10_000;
  return new CircuitBreaker(action, {
    ...(settings.name ? { name: settings.name } : {}),
    timeout: false,
    errorThresholdPercentage: settings.errorThresholdPercentage ?? 50,
    volumeThreshold: settings.volumeThreshold ?? 10,
    resetTimeout: settings.resetTimeoutMs ?? 5_000,
    rollingCountTimeout: window,
    rollingCountBuckets: BUCKETS,
    rotateBucketController: bucketClock(Math.floor(window / BUCKETS)),
    rollingPercentilesEnabled: false,
    enableSnapshots: false,
    ...(settings.capacity ? { capacity: settings.capacity } : {}),
    ...(settings.errorFilter ? { errorFilter: settings.errorFilter } : {}),
  });
}

export interface KeyedBreakersOptions<A extends unknown[], R> {
  /** The call each breaker guards, the same for every key. */
  action: (...args: A) => Promise<R>;
  breaker?: Omit<BreakerSettings, 'name'>;
  /** Breakers kept at most; beyond, the one used longest ago is let go of (10,000). */
  capacity?: number;
  onOpen?: (key: string) => void;
}

interface Kept<A extends unknown[], R> {
  breaker: CircuitBreaker<A, R>;
  lastUsed: number;
}

/**
 * One circuit breaker per key (an endpoint, a connection), made on first use: a target that keeps
 * failing is rested without holding back the others. Each breaker keeps a timer, so the map is bounded
 * and `sweep` lets go of those quiet and healthy.
 */
export function keyedBreakers<A extends unknown[], R>(options: KeyedBreakersOptions<A, R>) {
  const kept = new BoundedMap<string, Kept<A, R>>(options.capacity ?? 10_000, (_key, { breaker }) =>
    breaker.shutdown(),
  );

  function of(key: string): CircuitBreaker<A, R> {
    const found = kept.use(key);
    if (found) {
      found.lastUsed = Date.now();
      return found.breaker;
    }
    const breaker = circuitBreaker(options.action, { ...options.breaker, name: key });
    if (options.onOpen) breaker.on('open', () => options.onOpen!(key));
    kept.set(key, { breaker, lastUsed: Date.now() });
    return breaker;
  }

  return {
    /** Calls the action through the key's breaker (opossum rejects at once while it is open). */
    fire: (key: string, ...args: A): Promise<R> => of(key).fire(...args),
    /** The keys whose breaker is open now. */
    opened: (): string[] => [...kept].filter(([, { breaker }]) => breaker.opened).map(([key]) => key),
    /** Lets go of the closed breakers unused for `idleMs`, but those `busy` says are in use. */
    sweep(idleMs: number, busy: (key: string) => boolean = () => false) {
      const quiet = Date.now() - idleMs;
      for (const [key, { breaker, lastUsed }] of kept)
        if (breaker.closed && lastUsed < quiet && !busy(key)) {
          breaker.shutdown();
          kept.delete(key);
        }
    },
    get size() {
      return kept.size;
    },
    shutdown() {
      for (const { breaker } of kept.values()) breaker.shutdown();
      kept.clear();
    },
  };
}
export type KeyedBreakers<A extends unknown[], R> = ReturnType<typeof keyedBreakers<A, R>>;
