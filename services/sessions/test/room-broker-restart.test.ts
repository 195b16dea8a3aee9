/**
 * The live room with a NATS server of the test's own, stopped and started again while a stream is
 * open: the stream goes on with what happens after the broker returns, and a client that reconnects
 * is replayed what it missed.
 */
import { openStream, startNatsServer } from '@pp/testing';
import { rooms } from './support/room.ts';
import { startSessions, type SessionsHarness } from './support/sessions-harness.ts';

describe('live room: NATS restarts while streams are open', () => {
  let nats: Awaited<ReturnType<typeof startNatsServer>>;
  let h: SessionsHarness;
  beforeAll(async () => {
    nats = await startNatsServer();
    h = await startSessions({}, { NATS_URL: nats.url });
  });
  afterAll(async () => {
    await h.stop();
    await nats.destroy();
  });

  it('keeps streaming after the broker returns, and replays what a reconnecting client missed', async () => {
    const r = rooms(h);
    const session = await r.createSession('ann');
    const stream = await openStream(`${h.url}/sessions/${session.code}/events`);
    try {
      await r.join(session.code, 'Before');
      const before = await stream.waitFor((e) => e.data.participant?.name === 'Before');

      await nats.stop();
      // Taken without the broker: participant.joined waits in the outbox.
      await r.join(session.code, 'During');
      await nats.restart();
      await r.join(session.code, 'After');
      await stream.waitFor((e) => e.data.participant?.name === 'After', 20_000);
      expect(stream.events.map((e) => e.data.participant.name)).toEqual(['Before', 'During', 'After']);

      const again = await openStream(`${h.url}/sessions/${session.code}/events`, {
        'last-event-id': before.id,
      });
      try {
        await again.waitFor((e) => e.data.participant?.name === 'After');
        expect(again.events.map((e) => e.id)).toEqual(stream.events.slice(1).map((e) => e.id));
      } finally {
        await again.close();
      }
    } finally {
      await stream.close();
    }
  }, 40_000);
});
