import type { Seat } from './api/types.ts';

/**
 * What the browser keeps: the access token (signed in) and, per room, the participant's seat (its id
 * and token). Nothing else: no profile, no votes. Storage may be off (a private window): then
 * nothing is kept and the app still works for the page's life.
 */
const ACCESS_TOKEN = 'pp.access_token';
const seatKey = (code: string) => `pp.seat.${code.toUpperCase()}`;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage is off: the seat lasts as long as the page.
  }
}

export const readAccessToken = () => read(ACCESS_TOKEN);
export const writeAccessToken = (token: string | null) => write(ACCESS_TOKEN, token);

export function readSeat(code: string): Seat | null {
  try {
    const seat = JSON.parse(read(seatKey(code)) ?? 'null') as Seat | null;
    return seat && Number.isInteger(seat.id) && typeof seat.token === 'string' ? seat : null;
  } catch {
    return null;
  }
}
export const writeSeat = (code: string, seat: Seat | null) =>
  write(seatKey(code), seat ? JSON.stringify({ id: seat.id, token: seat.token }) : null);
