import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Resolver } from '@pp/outbound';
import { startService, type StartedService } from '@pp/runtime';
import { createLogger } from '@pp/logger';
import { createTestDatabase, testNatsUrl, until, type TestDatabase } from '@pp/testing';
import { KEY, startPlatform, type Platform } from '../../../../e2e/support/platform.ts';
import { definition } from '../../src/app.ts';
import { readConfig } from '../../src/config.ts';

const logger = createLogger({ name: 'webhooks-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A free port of the loopback interface (the webhooks unit keeps it across restarts, so the gateway finds it). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

export interface HarnessOptions {
  /** Settings of the webhooks unit over the tests' defaults (private targets allowed, a fast retry schedule). */
  env?: Record<string, string>;
  resolve?: Resolver;
  /** Replicas of the webhooks unit on the same database (the gateway reaches the first). */
  replicas?: number;
  /** Runs the unit in a process of its own, as deployed (benchmarks); in this process by default. */
  ownProcess?: boolean;
}

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** The unit as `npm start` runs it: its own node process, ready once /readyz answers 200. */
async function spawnUnit(env: Record<string, string>, port: number) {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await until(async () => {
    if (child.exitCode !== null) throw new Error(`webhooks unit exited with ${child.exitCode}`);
    return fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
  }, 30_000);
  return child;
}

/**
 * The platform (identity, sessions, stories, gateway) with the webhooks unit beside it, on the same
 * event bus, reached through the gateway; the unit can be restarted on the same port.
 */
export async function startWebhooksPlatform(options: HarnessOptions = {}) {
  const port = await freePort();
  const platform: Platform = await startPlatform({
    gatewayEnv: { WEBHOOKS_URL: `http://127.0.0.1:${port}` },
  });
  const db: TestDatabase = await createTestDatabase('pf_webhooks');
  const env = (unitPort: number): Record<string, string> => ({
    NATS_URL: testNatsUrl(),
    INTERNAL_SIGNING_KEY: KEY,
    EVENTS_PREFIX: platform.prefix,
    PORT: String(unitPort),
    DATABASE_URL: db.url,
    SESSIONS_URL: platform.unitUrls.sessions,
    CREDENTIALS_ENCRYPTION_KEY: 'credentials-key-for-webhook-tests-0123456789',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    WEBHOOKS_RETRY_SCALE: '0.001',
    WEBHOOKS_POLL_MS: '50',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.env,
  });
  const config = (unitPort: number) => readConfig(env(unitPort));
  const start = (unitPort: number) =>
    startService(
      { ...definition(config(unitPort), { resolve: options.resolve }), host: '127.0.0.1' },
      logger,
    );
  let units: StartedService[] = [];
  let child: ChildProcess | undefined;
  const startAll = async () => {
    if (options.ownProcess) {
      child = await spawnUnit(env(port), port);
      return;
    }
    units = [await start(port)];
    for (let i = 1; i < (options.replicas ?? 1); i++) units.push(await start(0));
  };
  const stopAll = async () => {
    for (const u of units) await u.stop();
    units = [];
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    child = undefined;
  };
  await startAll();

  return {
    ...platform,
    /** The webhooks unit's own database. */
    databaseUrl: db.url,
    units: () => units,
    stopWebhooks: stopAll,
    startWebhooks: startAll,
    /** Waits until the probe holds (a delivery arrived, a log shows an attempt). */
    until,
    async stop() {
      await stopAll();
      await platform.stop();
      await db.drop();
    },
  };
}
export type WebhooksPlatform = Awaited<ReturnType<typeof startWebhooksPlatform>>;
