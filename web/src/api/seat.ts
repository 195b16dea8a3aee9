import { readSeat } from '../storage.ts';

/**
 * The participant token this browser holds for a room, once it has joined: sent with every request
 * for the room (reads, votes, the live stream), so that they count against this participant's own
 * rate-limit allowance rather than the allowance everyone behind the same address shares.
 */
export const seatTokenOf = (code: string): string | undefined => readSeat(code)?.token;
