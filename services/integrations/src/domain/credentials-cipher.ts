import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Credentials at rest: AES-256-GCM with a fresh 12-byte IV per encryption, and associated data that
 * names the row and the field the ciphertext belongs to (so a value copied to another connection, or
 * another field, does not decrypt). Each value carries the id of its key: after a rotation the old key
 * stays in the list of previous keys for reading, and every new write uses the current one.
 *
 * Stored form: `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts).
 */
export interface CredentialsCipher {
  encrypt(plain: string, binding: string): string;
  decrypt(stored: string, binding: string): string;
  /** Whether a stored value was written with an older key (to write it again with the current one). */
  isStale(stored: string): boolean;
}

interface Key {
  id: string;
  bytes: Buffer;
}

/** The AES key of a configured secret (any text of 32 characters or more), and a short id naming it. */
function keyOf(secret: string): Key {
  const bytes = Buffer.from(hkdfSync('sha256', secret, 'pp-integrations', 'credentials-aes-256-gcm', 32));
  const id = createHash('sha256').update(bytes).digest('base64url').slice(0, 8);
  return { id, bytes };
}

export class CredentialsDecryptionError extends Error {
  constructor(reason: string) {
    super(`stored credentials cannot be read: ${reason}`);
    this.name = 'CredentialsDecryptionError';
  }
}

export function createCredentialsCipher(current: string, previous: string[] = []): CredentialsCipher {
  const key = keyOf(current);
  const keys = new Map([key, ...previous.filter(Boolean).map(keyOf)].map((k) => [k.id, k]));
  return {
    encrypt(plain, binding) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
      cipher.setAAD(Buffer.from(binding, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
      return ['v1', key.id, ...parts].join('.');
    },
    decrypt(stored, binding) {
      const [version, kid, iv, tag, body] = stored.split('.');
      if (version !== 'v1' || !kid || !iv || !tag || body === undefined)
        throw new CredentialsDecryptionError('unknown format');
      const found = keys.get(kid);
      if (!found) throw new CredentialsDecryptionError(`no key ${kid} configured`);
      try {
        // The whole 16-byte tag: GCM would check a shorter one against as many bytes only.
        const decipher = createDecipheriv('aes-256-gcm', found.bytes, Buffer.from(iv, 'base64url'), {
          authTagLength: 16,
        });
        decipher.setAAD(Buffer.from(binding, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new CredentialsDecryptionError('authentication failed');
      }
    },
    isStale: (stored) => stored.split('.')[1] !== key.id,
  };
}

/** What a connection's credentials are bound to: its id, owner and provider, and the column. */
export const credentialsBinding = (
  c: { id: string; ownerId: string; provider: string },
  field = 'credentials',
) => `connection:${c.id}:${c.ownerId}:${c.provider}:${field}`;
