/** A bucket's count in its current window. */
export interface Count {
  totalHits: number;
  resetTime: Date;
}

/**
 * Where the buckets' counts live: in this process (answered synchronously, without a promise on the
 * hot path) or shared by every replica. Each bucket's window starts with its first request and lasts
 * a minute.
 */
export interface Counts {
  /** Adds `hits` (negative to give some back) and answers the count with them. */
  add(key: string, hits: number): Count | Promise<Count>;
  /** The count without adding to it (no window yet: zero hits). */
  peek(key: string): Count | Promise<Count>;
  shutdown?(): void;
}

/** A count now or later: local counts answer at once (no promise on the hot path), shared ones later. */
export function settle<T>(value: T | Promise<T>, then: (v: T) => void, fail: (err: unknown) => void) {
  if (value instanceof Promise) value.then(then, fail);
  else then(value);
}
