import type { MikroORM } from '@mikro-orm/postgresql';
import { trace } from '@opentelemetry/api';
import { createDatabase, type Database } from '@pp/db';
import { createLogger } from '@pp/logger';
import { inSpan } from '@pp/telemetry';
import {
  createTestDatabase,
  testNatsUrl,
  traceInMemory,
  uniqueName,
  until,
  type TestDatabase,
} from '@pp/testing';
import {
  connectNats,
  deleteBusStreams,
  ensureStream,
  enqueue,
  eventBus,
  eventEntities,
  eventsMigrations,
  startConsumer,
  startOutboxRelay,
  type NatsConnection,
} from '../src/index.ts';

/**
 * The trace of a request goes with its events: the outbox keeps it, the relay sends it in the
 * message's headers, and the consumer handles the event inside it, so what the handler logs names
 * the request's trace.
 */
describe("events: a request's trace carried to the consumer", () => {
  let tracing: ReturnType<typeof traceInMemory>;
  let testDb: TestDatabase;
  let db: Database;
  let nc: NatsConnection;
  const bus = eventBus(uniqueName('tr').toLowerCase());
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    name: 'events-trace-test',
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });

  beforeAll(async () => {
    tracing = traceInMemory();
    testDb = await createTestDatabase('events_trace');
    db = await createDatabase({
      url: testDb.url,
      entities: eventEntities,
      migrations: eventsMigrations,
      logger,
    });
    nc = await connectNats({ url: testNatsUrl(), name: 'events-trace-test', logger });
    await ensureStream(nc, bus);
  });

  afterAll(async () => {
    await deleteBusStreams(nc, bus);
    await nc.close();
    await db.close();
    await testDb.drop();
    await tracing.stop();
  });

  it('logs the trace id of the request that caused the event while handling it', async () => {
    const consumer = await startConsumer({
      nc,
      orm: db.orm as MikroORM,
      logger,
      bus,
      durable: 'traced',
      filterSubject: `${bus.prefix}.>`,
      handlers: {
        'token.revoked': async (event) => logger.info({ event_id: event.id }, 'handled the revocation'),
      },
    });
    const relay = startOutboxRelay({ orm: db.orm as MikroORM, nc, logger, bus, intervalMs: 100 });
    // The request: its span is active while it writes the event.
    const requestTrace = await inSpan('request', {}, async () => {
      const em = db.fork();
      enqueue(em, 'token.revoked', { token_id: 't1', user_id: 'u1', kind: 'api' }, { source: 'test' });
      await em.flush();
      return trace.getActiveSpan()!.spanContext().traceId;
    });
    relay.kick();
    const line = await until(async () => lines.find((l) => l.msg === 'handled the revocation'));
    await relay.stop();
    await consumer.stop();

    expect(line.trace_id).toBe(requestTrace);
    // The line's span is the consumer's own, a child of the relay's publish in the same trace.
    const handling = tracing.spans().find((s) => s.spanContext().spanId === line.span_id);
    expect(handling?.name).toBe('traced process token.revoked');
    const publish = tracing.spans().find((s) => s.name === 'publish token.revoked');
    expect(handling?.parentSpanContext?.spanId).toBe(publish?.spanContext().spanId);
    expect(publish?.spanContext().traceId).toBe(requestTrace);
  });
});
