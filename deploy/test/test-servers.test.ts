import { existsSync } from 'node:fs';
import net from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
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
    const env = { DATABASE_URL: 'postgres://postgres@db.example:5432/postgres', NATS_URL: 'nats://n:4222' };
    const servers = await startTestServers(env);
    expect(servers.env).not.toHaveProperty('DATABASE_URL');
    expect(servers.env).not.toHaveProperty('NATS_URL');
    await servers.stop();
  });

  it("uses the machine's servers when they answer where it looks", async () => {
    const [pgStandIn, natsStandIn] = [await answering(), await answering()];
    try {
      const servers = await startTestServers({
        TEST_POSTGRES_PROBE: `127.0.0.1:${pgStandIn.port}`,
        TEST_NATS_PROBE: `127.0.0.1:${natsStandIn.port}`,
      });
      expect(servers.env).toMatchObject({
        DATABASE_URL: `postgres://postgres@127.0.0.1:${pgStandIn.port}/postgres`,
        NATS_URL: `nats://127.0.0.1:${natsStandIn.port}`,
      });
      await servers.stop();
    } finally {
      await pgStandIn.close();
      await natsStandIn.close();
    }
  });

  it('starts an embedded PostgreSQL and a nats-server with JetStream when none answers, and stops them', async () => {
    const [pgNone, natsNone] = [await answering(), await answering()];
    await Promise.all([pgNone.close(), natsNone.close()]); // two ports where nothing answers now
    const servers = await startTestServers({
      TEST_POSTGRES_PROBE: `127.0.0.1:${pgNone.port}`,
      TEST_NATS_PROBE: `127.0.0.1:${natsNone.port}`,
    });
    const pgPort = Number(new URL(servers.env.DATABASE_URL!).port);
    const natsPort = Number(new URL(servers.env.NATS_URL!).port);
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
    } finally {
      await servers.stop();
    }
    expect([await isPortFree(pgPort, '127.0.0.1'), await isPortFree(natsPort, '127.0.0.1')]).toEqual([
      true,
      true,
    ]);
  }, 90_000);
});
