import {
  createHmac,
  createSecretKey,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';

/**
 * A participant token says who holds a seat in a room: `ppt_<secret>.<mac>`. The sessions unit keeps
 * only the token's hash and checks it against that; the MAC lets the gateway, which has no access to
 * the sessions database, tell a token the sessions unit minted for a room from a made-up string
 * without asking anyone (a made-up string must not buy a rate-limit bucket of its own). The MAC key is
 * derived (HKDF-SHA256, a label of its own) from the internal signing key every unit already has, and
 * covers the room's code: a token of one room proves nothing in another.
 */
export type ParticipantTokenKey = KeyObject;

const SECRET_BYTES = 24;
const MAC_BYTES = 16;
/** `ppt_` + 24 random bytes + `.` + a 16-byte MAC, both base64url. */
const SIGNED = /^ppt_([A-Za-z0-9_-]{32})\.([A-Za-z0-9_-]{22})$/;

export function participantTokenKey(internalSigningKey: string): ParticipantTokenKey {
  return createSecretKey(
    Buffer.from(hkdfSync('sha256', internalSigningKey, 'pp-participant-token', 'participant-token-mac', 32)),
  );
}

const macOf = (key: ParticipantTokenKey, code: string, secret: string) =>
  createHmac('sha256', key).update(`${code.toUpperCase()}:${secret}`).digest().subarray(0, MAC_BYTES);

/** A new token for a seat in the room of `code`. */
export function mintParticipantToken(key: ParticipantTokenKey, code: string): string {
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return `ppt_${secret}.${macOf(key, code, secret).toString('base64url')}`;
}

/**
 * The token's MAC (a name for the token that gives nothing of its secret away) when the token was
 * minted for the room of `code` with this key; undefined otherwise (a token minted before tokens
 * carried a MAC included). Compared in constant time.
 */
export function verifyParticipantToken(
  key: ParticipantTokenKey,
  token: string,
  code: string,
): string | undefined {
  const parts = SIGNED.exec(token);
  if (!parts) return undefined;
  const given = Buffer.from(parts[2]!, 'base64url');
  const expected = macOf(key, code, parts[1]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? parts[2] : undefined;
}
