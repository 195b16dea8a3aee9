import type { ConfigError } from '@pp/config';
import { readConfig, upstreamUrls } from './config.ts';

const KEY = { INTERNAL_SIGNING_KEY: 'k'.repeat(40) };

describe('gateway config', () => {
  it('has the documented defaults and a URL per unit', () => {
    const config = readConfig(KEY);
    expect(config).toMatchObject({
      PORT: 8080,
      METRICS_PORT: 0,
      RATE_LIMIT_PER_MINUTE: 60,
      RATE_LIMIT_ROOM_ENTRY_PER_MINUTE: 600,
      TRUST_PROXY: false,
      BODY_LIMIT: 1024 * 1024,
      CORS_ORIGINS: '*',
    });
    expect(config.REDIS_URL).toBeUndefined();
    expect(upstreamUrls(config)).toMatchObject({
      identity: 'http://127.0.0.1:8081',
      webhooks: 'http://127.0.0.1:8086',
    });
    expect(upstreamUrls(readConfig({ ...KEY, AI_URL: 'http://ai.internal:80' })).ai).toBe(
      'http://ai.internal:80',
    );
  });

  it('reads sizes, proxy hops and limits', () => {
    expect(
      readConfig({ ...KEY, BODY_LIMIT: '512kb', TRUST_PROXY: '2', RATE_LIMIT_PER_MINUTE: '5' }),
    ).toMatchObject({
      BODY_LIMIT: 512 * 1024,
      TRUST_PROXY: 2,
      RATE_LIMIT_PER_MINUTE: 5,
      RATE_LIMIT_ROOM_ENTRY_PER_MINUTE: 50,
    });
    expect(
      readConfig({ ...KEY, RATE_LIMIT_ROOM_ENTRY_PER_MINUTE: '200', METRICS_PORT: '9464' }),
    ).toMatchObject({ RATE_LIMIT_PER_MINUTE: 60, RATE_LIMIT_ROOM_ENTRY_PER_MINUTE: 200, METRICS_PORT: 9464 });
  });

  it('stops on a bad value, naming the variable', () => {
    const bad = (env: Record<string, string>) => {
      try {
        readConfig({ ...KEY, ...env });
      } catch (err) {
        return (err as ConfigError).variables;
      }
      return [];
    };
    expect(bad({ TRUST_PROXY: 'sometimes' })).toEqual(['TRUST_PROXY']);
    expect(bad({ RATE_LIMIT_PER_MINUTE: '0' })).toEqual(['RATE_LIMIT_PER_MINUTE']);
    expect(bad({ RATE_LIMIT_ROOM_ENTRY_PER_MINUTE: 'lots' })).toEqual(['RATE_LIMIT_ROOM_ENTRY_PER_MINUTE']);
    expect(bad({ RATE_LIMIT_ROOM_ENTRY_PER_MINUTE: '0' })).toEqual(['RATE_LIMIT_ROOM_ENTRY_PER_MINUTE']);
    expect(bad({ METRICS_PORT: '70000' })).toEqual(['METRICS_PORT']);
    expect(bad({ REDIS_URL: 'http://x' })).toEqual(['REDIS_URL']);
    expect(bad({ CORS_ORIGINS: '*', CORS_CREDENTIALS: 'true' })).toEqual(['CORS_ORIGINS']);
    expect(bad({ INTERNAL_SIGNING_KEY: 'short' })).toEqual(['INTERNAL_SIGNING_KEY']);
  });
});
