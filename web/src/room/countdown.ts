import type { Session } from '../api/types.ts';

export type RoundCountdown = NonNullable<Session['countdown']>;

/** Whole seconds left (rounded up, so zero means over) at `now`. */
export const secondsLeft = (c: RoundCountdown, now: number) =>
  Math.max(0, Math.ceil((Date.parse(c.ends_at) - now) / 1000));

/** "4:05", "0:09". */
export const clock = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** The moments a screen reader is told how long is left: not every second. */
const MARKS = [600, 300, 120, 60, 30, 10];

/**
 * What a screen reader is told at `left` seconds of a countdown of `length`: the start until the
 * first mark below its length, then the last mark passed, then zero. It changes a few times per
 * countdown, so a polite live region reads each once.
 */
export function announcement(
  length: number,
  left: number,
): { kind: 'start' | 'left' | 'zero'; seconds: number } {
  if (left <= 0) return { kind: 'zero', seconds: 0 };
  const passed = MARKS.filter((m) => m < length && left <= m);
  return passed.length ? { kind: 'left', seconds: Math.min(...passed) } : { kind: 'start', seconds: length };
}
