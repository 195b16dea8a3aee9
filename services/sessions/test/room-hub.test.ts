/**
 * The live room's hub on its own, on a bus whose event stream does not exist yet (a broker that is not
 * ready when the replica starts): streams are refused with 503 until the hub follows the stream, which
 * it keeps trying to, and then get the events.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { jetstream } from '@nats-io/jetstream';
import { makeEvent } from '@pp/contracts';
import {
  connectNats,
  deleteBusStreams,
  ensureStream,
  eventBus,
  subjectFor,
  type NatsConnection,
} from '@pp/events';
import { errorHandler } from '@pp/http';
import { createLogger } from '@pp/logger';
import { openStream, testNatsUrl, uniqueName, until } from '@pp/testing';
import { createRoomHub, type RoomHub } from '../src/background/room-hub.ts';

const logger = createLogger({ name: 'room-hub-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const SESSION = '6b0f7c1e-3a7e-4a53-9d55-1f7c2b8f0b01';

describe('live room hub', () => {
  let nc: NatsConnection;
  let hub: RoomHub;
  let url: string;
  let close: () => void;
  const bus = eventBus(uniqueName('t').toLowerCase());

  beforeAll(async () => {
    nc = await connectNats({ url: testNatsUrl(), name: 'room-hub-test', logger });
    hub = createRoomHub({
      nc,
      bus,
      logger,
      isShuttingDown: () => false,
      record: async () => undefined,
      lastRecorded: async () => undefined,
    });
    const app = express();
    app.get('/events', async (req, res, next) => {
      try {
        await hub.open(req, res, SESSION, async () => ({ messages: [], lastPosition: undefined }));
      } catch (err) {
        next(err);
      }
    });
    app.use(errorHandler(logger));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    close = () => server.close();
  });
  afterAll(async () => {
    await hub.stop();
    close();
    await deleteBusStreams(nc, bus);
    await nc.close();
  });

  it('refuses streams with 503 while it cannot follow the event stream, and streams once it can', async () => {
    const refused = await fetch(url);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('service_unavailable');

    await ensureStream(nc, bus);
    let stream = await openStream(url);
    await until(async () => {
      if (stream.status === 200) return true;
      await stream.close();
      stream = await openStream(url);
      return false;
    });
    try {
      const joined = makeEvent(
        'participant.joined',
        {
          session_id: SESSION,
          session_code: 'ABCDEF',
          participant: { id: 1, name: 'Ann', role: 'participant' },
        },
        { source: 'sessions' },
      );
      await jetstream(nc).publish(subjectFor(bus, joined.type), JSON.stringify(joined));
      const seen = await stream.waitFor((e) => e.event === 'participant.joined');
      expect(seen.id).toBe(joined.id);
    } finally {
      await stream.close();
    }
  }, 20_000);

  it('starts where the record ends: what was published while no replica ran is recorded, in order', async () => {
    await ensureStream(nc, bus);
    const js = jetstream(nc);
    const joined = (name: string) =>
      makeEvent(
        'participant.joined',
        { session_id: SESSION, session_code: 'ABCDEF', participant: { id: 2, name, role: 'participant' } },
        { source: 'stories' },
      );
    const events = [joined('Recorded'), joined('Missed 1'), joined('Missed 2')];
    const acks: Array<{ seq: number }> = [];
    for (const e of events) acks.push(await js.publish(subjectFor(bus, e.type), JSON.stringify(e)));
    const written: Array<{ id: string; position: number }> = [];
    const late = createRoomHub({
      nc,
      bus,
      logger,
      isShuttingDown: () => false,
      // The record ends with the first of them.
      lastRecorded: async () => acks[0]!.seq,
      record: async (fed) => void written.push(...fed.map((f) => ({ id: f.event.id, position: f.position }))),
    });
    try {
      await until(async () => written.length >= 2);
      expect(written).toEqual([
        { id: events[1]!.id, position: acks[1]!.seq },
        { id: events[2]!.id, position: acks[2]!.seq },
      ]);
    } finally {
      await late.stop();
    }
  });
});
