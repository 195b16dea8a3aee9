import { existsSync } from 'node:fs';
import net from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { createClient } from 'redis';
import { isPortFree } from '../src/launcher/ports.ts';
import { startTestServers } from './support/test-servers.ts';

/** A TCP server that answers (accepts connections) on a free port, standing in for a machine's server. */
async function answering(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return { port, close: () => new Promise((r) => server.close(() => r())) };
}

describe('the servers of a test run', () => {
  it('uses DATABASE_URL and NATS_URL as they are', async () => {
    const env = {
      DATABASE_URL: 'postgres://postgres@db.example:5432/postgres',
      NATS_URL: 'nats://n:4222',
      TEST_REDIS_URL: 'redis://r:6379',
    };
    const servers = await startTestServers(env);
    expect(servers.env).not.toHaveProperty('DATABASE_URL');
    expect(servers.env).not.toHaveProperty('NATS_URL');
    expect(servers.env).not.toHaveProperty('TEST_REDIS_URL');
    await servers.stop();
  });

  it("uses the machine's servers when they answer where it looks", async () => {
    const standIns = [await answering(), await answering(), await answering()];
    const [pgPort, natsPort, redisPort] = standIns.map((s) => s.port);
    try {
      const servers = await startTestServers({
        TEST_POSTGRES_PROBE: `127.0.0.1:${pgPort}`,
        TEST_NATS_PROBE: `127.0.0.1:${natsPort}`,
        TEST_REDIS_PROBE: `127.0.0.1:${redisPort}`,
      });
      expect(servers.env).toMatchObject({
        DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/postgres`,
        NATS_URL: `nats://127.0.0.1:${natsPort}`,
        TEST_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      });
      await servers.stop();
    } finally {
      await Promise.all(standIns.map((s) => s.close()));
    }
  });

  it('starts an embedded PostgreSQL, a nats-server with JetStream and a redis-server when none answers, and stops them', async () => {
    const nones = [await answering(), await answering(), await answering()];
    await Promise.all(nones.map((s) => s.close())); // ports where nothing answers now
    const servers = await startTestServers({
      TEST_POSTGRES_PROBE: `127.0.0.1:${nones[0]!.port}`,
      TEST_NATS_PROBE: `127.0.0.1:${nones[1]!.port}`,
      TEST_REDIS_PROBE: `127.0.0.1:${nones[2]!.port}`,
    });
    const ports = ['DATABASE_URL', 'NATS_URL', 'TEST_REDIS_URL'].map((k) =>
      Number(new URL(servers.env[k]!).port),
    );
    try {
      const client = new pg.Client({ connectionString: servers.env.DATABASE_URL });
      await client.connect();
      expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      await client.end();
      const nc = await connect({ servers: servers.env.NATS_URL });
      const account = await (await jetstreamManager(nc)).getAccountInfo();
      expect(account.limits).toBeDefined();
      await nc.close();
      expect(existsSync(servers.env.NATS_SERVER_BIN!)).toBe(true);
      const redis = createClient({ url: servers.env.TEST_REDIS_URL });
      await redis.connect();
      expect(await redis.ping()).toBe('PONG');
      await redis.quit();
    } finally {
      await servers.stop();
    }
    for (const port of ports) expect([port, await isPortFree(port, '127.0.0.1')]).toEqual([port, true]);
  }, 90_000);
});
