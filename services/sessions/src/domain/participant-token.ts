import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A participant's secret: returned on join, kept only as its SHA-256. */
export function generateParticipantToken(): { token: string; hash: string } {
  const token = `ppt_${randomBytes(24).toString('base64url')}`;
  return { token, hash: hashParticipantToken(token) };
}

export const hashParticipantToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function participantTokenMatches(token: string, storedHash: string): boolean {
  const given = Buffer.from(hashParticipantToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
