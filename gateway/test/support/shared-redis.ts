import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { testRedisUrl } from '@pp/testing';
import { startGateway, type GatewayHarness } from './gateway-harness.ts';

export interface SharedCountsReplicas {
  /** The Redis the replicas count in (for a test to look at the keys). */
  redis: ReturnType<typeof createClient>;
  /** The prefix of this file's keys (a random one: files running at once share the Redis). */
  prefix: string;
  a: GatewayHarness;
  b: GatewayHarness;
}

/**
 * Two gateway replicas counting in the test Redis, started before the describe block's tests (60
 * requests a minute, under a key prefix of their own) and stopped after them, their keys deleted.
 * `env` is read when they start (the stub units of the file are up by then).
 */
export function sharedCountsReplicas(env: () => Record<string, string>): SharedCountsReplicas {
  const redis = createClient({ url: testRedisUrl() });
  const prefix = `pp:rl:test:${randomBytes(4).toString('hex')}:`;
  const replicas = { redis, prefix } as SharedCountsReplicas;
  beforeAll(async () => {
    await redis.connect();
    const options = {
      env: { ...env(), RATE_LIMIT_PER_MINUTE: '60', RATE_LIMIT_REDIS_PREFIX: prefix },
      redis,
    };
    replicas.a = await startGateway(options);
    replicas.b = await startGateway(options);
  });
  afterAll(async () => {
    await replicas.a?.stop();
    await replicas.b?.stop();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(keys);
    await redis.quit();
  });
  return replicas;
}
