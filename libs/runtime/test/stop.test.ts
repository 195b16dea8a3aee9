/**
 * A unit stops in order (stop accepting, background work, consumers, relay, NATS, database), and a
 * step that keeps it from stopping is named while it runs.
 */
import express from 'express';
import { eventEntities, eventsMigrations } from '@pp/events';
import { createLogger } from '@pp/logger';
import { createTestDatabase, testNatsUrl, uniqueName, type TestDatabase } from '@pp/testing';
import { startService, type ServiceDefinition } from '../src/index.ts';

const logger = createLogger({ name: 'runtime-stop-test', level: 'silent' });
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('runtime_stop');
});
afterAll(() => db.drop());

function unit(background: ServiceDefinition['background']): ServiceDefinition {
  return {
    name: 'stop-test',
    config: {
      PORT: 0,
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      NATS_URL: testNatsUrl(),
      SHUTDOWN_TIMEOUT_MS: 10_000,
      EVENTS_PREFIX: uniqueName('rt').toLowerCase(),
    },
    entities: eventEntities,
    migrations: eventsMigrations,
    createApp: () => express(),
    background,
    host: '127.0.0.1',
  };
}

describe('stopping a unit', () => {
  it('names a step still running after the time given, lets it finish, and goes on with the rest', async () => {
    const order: string[] = [];
    const started = await startService(
      unit(() => [
        {
          name: 'a slow task',
          stop: () =>
            new Promise<void>((resolve) => setTimeout(() => resolve(void order.push('slow task')), 300)),
        },
        { name: 'a quick task', stop: () => void order.push('quick task') },
      ]),
      logger,
    );
    const slow: string[] = [];
    await started.stop({ slowStepMs: 100, onSlowStep: (step) => slow.push(step) });
    // (Other steps may be slow too on a busy machine; the quick task, synchronous, never is.)
    expect(slow).toContain('background: a slow task');
    expect(slow).not.toContain('background: a quick task');
    expect(order).toEqual(['slow task', 'quick task']);
    // The steps after the slow one ran: the server no longer answers, NATS is closed.
    expect(started.runtime.nc.isClosed()).toBe(true);
    await expect(fetch(started.server.url)).rejects.toThrow();
  });

  it('stops once however often it is asked', async () => {
    let stops = 0;
    const started = await startService(
      unit(() => [{ name: 'counted', stop: () => void stops++ }]),
      logger,
    );
    await Promise.all([started.stop(), started.stop()]);
    await started.stop();
    expect(stops).toBe(1);
  });
});
