import { createHash, timingSafeEqual } from 'node:crypto';
import { mintParticipantToken, type ParticipantTokenKey } from '@pp/contracts';

/**
 * A participant's secret for a seat in the room of `code`: returned on join, kept only as its SHA-256.
 * It carries a MAC the gateway checks (its own rate-limit bucket); a token minted before tokens had
 * one still matches its hash here.
 */
export function generateParticipantToken(
  key: ParticipantTokenKey,
  code: string,
): { token: string; hash: string } {
  const token = mintParticipantToken(key, code);
  return { token, hash: hashParticipantToken(token) };
}

export const hashParticipantToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function participantTokenMatches(token: string, storedHash: string): boolean {
  const given = Buffer.from(hashParticipantToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
