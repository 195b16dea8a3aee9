import { createCredentialsCipher, CredentialsDecryptionError } from './credentials-cipher.ts';

describe('credentials at rest', () => {
  const cipher = createCredentialsCipher('a-credentials-key-of-at-least-32-characters');

  it('reads what it wrote for the same binding only', () => {
    const stored = cipher.encrypt('{"token":"ghp_secret"}', 'connection:1:ann:github:credentials');
    expect(stored).not.toContain('ghp_secret');
    expect(cipher.decrypt(stored, 'connection:1:ann:github:credentials')).toBe('{"token":"ghp_secret"}');
    expect(() => cipher.decrypt(stored, 'connection:2:ann:github:credentials')).toThrow(
      CredentialsDecryptionError,
    );
  });

  it('refuses a value whose tag was cut short (GCM checks only the bytes it is given)', () => {
    const binding = 'connection:1:ann:github:credentials';
    const [version, kid, iv, tag, body] = cipher.encrypt('{"token":"ghp_secret"}', binding).split('.');
    const short = Buffer.from(tag!, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => cipher.decrypt([version, kid, iv, short, body].join('.'), binding)).toThrow(
      CredentialsDecryptionError,
    );
  });
});
