import { BoundedMap } from '@pp/collections';
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/** Standard Webhooks secrets: `whsec_` and 32 random bytes in base64 (the HMAC key is the decoded bytes). */
export const SECRET_PREFIX = 'whsec_';

export const newSecret = () => SECRET_PREFIX + randomBytes(32).toString('base64');

/** HMAC keys by secret: importing a key costs more than the HMAC of a small body. Bounded, in memory only. */
const keys = new BoundedMap<string, KeyObject>(10_000);
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64'));
    keys.set(secret, key);
  }
  return key;
}

/** `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The headers of one attempt. The id stays the same across retries (the receiver's idempotency key);
 * the timestamp is this attempt's. During a rotation both secrets sign, space-separated, so a receiver
 * still on the old secret keeps verifying.
 */
export function signedHeaders(
  secrets: string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => sign(s, id, timestamp, body)).join(' '),
  };
}
