import { BoundedMap } from '@pp/collections';
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Webhook secrets at rest: AES-256-GCM, a random 12-byte IV each time, the webhook's id as associated
 * data (a ciphertext copied to another row does not decrypt). The key is derived (HKDF-SHA256) from
 * the platform's encryption key for this use only; the stored text names the key version, so a new key
 * can be introduced beside the old one.
 */
const VERSION = 'v1';
const INFO = 'planning-poker webhook secrets v1';

export interface SecretBox {
  seal(plain: string, owner: string): string;
  open(sealed: string, owner: string): string;
}

export function secretBox(masterKey: string): SecretBox {
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', masterKey, 'pp-webhooks', INFO, 32)));
  // What was opened, by sealed text and owner: a delivery opens its webhook's secret on every attempt.
  const opened = new BoundedMap<string, string>(10_000);
  return {
    seal(plain, owner) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(owner));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
        .join('.');
    },
    open(sealed, owner) {
      const cacheKey = `${owner}:${sealed}`;
      const known = opened.get(cacheKey);
      if (known !== undefined) return known;
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('unknown secret format');
      // The whole 16-byte tag: GCM would check a shorter one against as many bytes only.
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'), { authTagLength: 16 })
        .setAAD(Buffer.from(owner))
        .setAuthTag(Buffer.from(tag, 'base64'));
      const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString(
        'utf8',
      );
      opened.set(cacheKey, plain);
      return plain;
    },
  };
}
