import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats, ensureStream, eventBus, startConsumer, type NatsConnection } from '@pp/events';
import { createLogger } from '@pp/logger';
import { startNatsCluster, type NatsServer } from '../src/launcher/nats-cluster.ts';
import { capturedLog } from './support/captured-log.ts';

/**
 * Replicas of every unit start together with the NATS cluster: a unit may ask for its streams while the
 * cluster has no leader yet. It waits for the cluster instead of failing its start.
 */
describe('the event streams on a NATS cluster that is not answering yet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pp-stream-setup-'));
  let servers: NatsServer[] = [];
  let nc: NatsConnection | undefined;
  afterAll(async () => {
    await nc?.close();
    await Promise.all(servers.map((s) => s.process.stop(3_000)));
    rmSync(dir, { recursive: true, force: true });
  });

  it('are made on three servers once the cluster has its majority back', async () => {
    servers = await startNatsCluster('nats-server', 3, dir, capturedLog().log);
    const [kept, ...others] = servers;
    nc = await connectNats({
      url: kept!.url,
      name: 'stream-setup',
      logger: createLogger({ name: 't', level: 'silent' }),
    });
    // Two of three gone: no majority, so no leader and no answer to any stream request.
    await Promise.all(others.map((s) => s.process.kill({ restart: false })));
    const bus = eventBus('setup');
    const made = ensureStream(nc, bus, { replicas: 3 });
    const settled = made.then(
      () => 'made',
      (err: Error) => err.message,
    );
    // Longer than one request waits for its answer (5 s): a start that does not wait fails meanwhile.
    await new Promise((r) => setTimeout(r, 7_000));
    for (const s of others) s.process.start();
    expect(await settled).toBe('made');
    const info = await (await jetstreamManager(nc)).streams.info(bus.stream);
    expect(info.config.num_replicas).toBe(3);
  }, 60_000);

  it('are made once when every replica of every unit asks for them at the same moment, through each server', async () => {
    const logger = createLogger({ name: 't', level: 'silent' });
    const connections = await Promise.all(
      servers.map((s, i) => connectNats({ url: s.url, name: `replica-${i}`, logger })),
    );
    try {
      for (let round = 0; round < 3; round++) {
        const bus = eventBus(`together${round}`);
        // Six units of two replicas each, spread over the three servers.
        const asks = Array.from({ length: 12 }, (_, i) =>
          ensureStream(connections[i % connections.length]!, bus, { replicas: 3 }).then(
            () => 'made',
            (err: Error) => err.message,
          ),
        );
        expect(await Promise.all(asks)).toEqual(Array.from({ length: 12 }, () => 'made'));
        const info = await (await jetstreamManager(nc!)).streams.info(bus.stream);
        expect(info.config.num_replicas).toBe(3);
        // Then each unit's two replicas make its durable consumer on it, at once too.
        const consumers = Array.from({ length: 12 }, (_, i) =>
          startConsumer({
            nc: connections[i % connections.length]!,
            bus,
            durable: `unit-${i % 6}`,
            filterSubject: `${bus.prefix}.>`,
            orm: undefined as never,
            logger,
            handlers: {},
          }),
        );
        const running = await Promise.all(consumers);
        await Promise.all(running.map((c) => c.stop()));
        const names = (await (await jetstreamManager(nc!)).consumers.list(bus.stream).next()).map(
          (c) => c.name,
        );
        expect(names.sort()).toEqual(['unit-0', 'unit-1', 'unit-2', 'unit-3', 'unit-4', 'unit-5']);
      }
    } finally {
      await Promise.all(connections.map((c) => c.close()));
    }
  }, 120_000);
});
