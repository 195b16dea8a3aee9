import {
  loadConfig,
  ConfigError,
  envBoolean,
  KNOWN_EXAMPLE_KEYS,
  port,
  natsUrl,
  secret,
  z,
} from './index.ts';

const schema = z.object({ PORT: port(8080), TRUST_PROXY: envBoolean(false), NATS_URL: natsUrl });

describe('loadConfig', () => {
  it('applies defaults and coerces values', () => {
    expect(loadConfig(schema, {})).toEqual({
      PORT: 8080,
      TRUST_PROXY: false,
      NATS_URL: 'nats://127.0.0.1:4222',
    });
    expect(loadConfig(schema, { PORT: '9000', TRUST_PROXY: 'true' })).toMatchObject({
      PORT: 9000,
      TRUST_PROXY: true,
    });
  });

  it('names the variable whose value is bad', () => {
    expect(() => loadConfig(schema, { PORT: 'eighty' })).toThrow(/PORT/);
    try {
      loadConfig(schema, { TRUST_PROXY: 'maybe', NATS_URL: 'http://x' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variables.sort()).toEqual(['NATS_URL', 'TRUST_PROXY']);
      expect((err as Error).message).toMatch(/TRUST_PROXY: must be true or false/);
    }
  });
});

describe('secret', () => {
  const keys = z.object({ INTERNAL_SIGNING_KEY: secret });

  it('refuses a key once published as an example, naming the variable', () => {
    for (const example of KNOWN_EXAMPLE_KEYS)
      expect(() => loadConfig(keys, { INTERNAL_SIGNING_KEY: example })).toThrow(
        /INTERNAL_SIGNING_KEY: is a published example key/,
      );
    expect(loadConfig(keys, { INTERNAL_SIGNING_KEY: 'x'.repeat(43) }).INTERNAL_SIGNING_KEY).toHaveLength(43);
  });
});
