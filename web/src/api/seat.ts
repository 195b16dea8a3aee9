import { readSeat } from '../storage.ts';

/**
 * The participant token this browser holds for a room, once it has joined: sent with every request
 * for the room (reads, votes, the live stream), so that they count against this participant's own
 * rate-limit allowance rather than the allowance everyone behind the same address shares.
 */
export const seatTokenOf = (code: string): string | undefined => readSeat(code)?.token;

/** The room of a live-stream URL (`/sessions/{code}/events`). */
export function seatTokenOfStream(url: string): string | undefined {
  const code = /^\/sessions\/([^/?]+)\/events/.exec(url)?.[1];
  if (code === undefined) return undefined;
  try {
    return seatTokenOf(decodeURIComponent(code));
  } catch {
    return undefined;
  }
}
