import { Webhook } from 'standardwebhooks';
import { secretBox } from './secret-box.ts';
import { newSecret, signedHeaders } from './signature.ts';

describe('signing', () => {
  it('signs so that the standardwebhooks verifier accepts it, with either secret during a rotation', () => {
    const [current, previous] = [newSecret(), newSecret()];
    const body = JSON.stringify({
      type: 'story.revealed',
      timestamp: new Date().toISOString(),
      data: { a: 'é' },
    });
    const headers = signedHeaders([current, previous], 'msg-1', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [current, previous])
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
  });
});

describe('the secrets box', () => {
  const box = secretBox('a-master-key-of-at-least-32-characters!');
  it('opens what it sealed for the same webhook only', () => {
    const sealed = box.seal('whsec_abc', 'webhook-1');
    expect(sealed).not.toContain('abc');
    expect(box.open(sealed, 'webhook-1')).toBe('whsec_abc');
    expect(() => box.open(sealed, 'webhook-2')).toThrow();
    expect(() => secretBox('another-master-key-of-32-characters!!').open(sealed, 'webhook-1')).toThrow();
    expect(box.seal('whsec_abc', 'webhook-1')).not.toBe(sealed);
  });

  it('refuses a sealed secret whose tag was cut short (GCM checks only the bytes it is given)', () => {
    const [version, iv, tag, data] = box.seal('whsec_abc', 'webhook-3').split('.');
    const short = Buffer.from(tag!, 'base64').subarray(0, 4).toString('base64');
    expect(() =>
      secretBox('a-master-key-of-at-least-32-characters!').open(
        [version, iv, short, data].join('.'),
        'webhook-3',
      ),
    ).toThrow();
  });
});
