/**
 * When to try again after a failed attempt: the Standard Webhooks schedule (about three days in all),
 * each delay with ±20 % jitter so endpoints that failed together are not retried together; a
 * `Retry-After` the receiver sent on a 429 or 503 is honoured when it asks for longer (to a day at most).
 */
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delays after the 1st, 2nd, ... failed attempt. Ten attempts in all. */
export const RETRY_DELAYS_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** An endpoint whose attempts have all failed this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * HOUR;

/** The longest wait a receiver's `Retry-After` is granted. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

export interface RetryInput {
  /** Attempts made so far, this one included. */
  attempts: number;
  /** Whether the delivery retries by itself (a manual redelivery is one attempt). */
  retries: boolean;
  /** What the receiver asked for, already read (granted up to a day). */
  retryAfterMs?: number;
  /** Speeds the schedule up (tests); 1 in production. */
  scale: number;
  random?: () => number;
}

/** Milliseconds until the next attempt, or undefined when there is none left. */
export function nextRetryDelay(input: RetryInput): number | undefined {
  if (!input.retries || input.attempts >= MAX_ATTEMPTS) return undefined;
  const base = RETRY_DELAYS_MS[input.attempts - 1]! * input.scale;
  const jittered = base * (0.8 + 0.4 * (input.random ?? Math.random)());
  return Math.round(Math.max(jittered, Math.min(input.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)));
}
