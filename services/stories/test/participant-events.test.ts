import { AckPolicy, DeliverPolicy, jetstreamManager } from '@nats-io/jetstream';
import { as, startStories, until, type StoriesHarness } from './support/stories-harness.ts';

/** The changes of a room's voters that can complete a round, and only those, reach the stories unit. */
describe('participant events', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  const LEFT = 'stories-participant-left';
  const UPDATED = 'stories-participant-updated';
  const RETIRED = 'stories-participants';
  const jsm = () => jetstreamManager(h.sessionsRuntime.nc);
  const stream = () => h.sessionsRuntime.bus.stream;
  /** What each durable has handed over so far. */
  const delivered = async () => {
    const m = await jsm();
    const of = async (durable: string) => (await m.consumers.info(stream(), durable)).delivered.consumer_seq;
    return { left: await of(LEFT), updated: await of(UPDATED) };
  };
  /** The stories unit's durables of participant events, with their filters. */
  const participantDurables = async () => {
    const found: Record<string, string | undefined> = {};
    for await (const c of (await jsm()).consumers.list(stream()))
      if (c.name.startsWith('stories-participant')) found[c.name] = c.config.filter_subject;
    return found;
  };
  const settle = () => new Promise((r) => setTimeout(r, 500));
  const statusOf = async (owner: string, id: string) =>
    (await h.client.get(`/stories/${id}`, as(owner))).body.story.status as string;

  it('takes the leaves and role changes of the rooms, never their joins or presence', async () => {
    expect(await participantDurables()).toEqual({
      [LEFT]: `${h.prefix}.participant.left`,
      [UPDATED]: `${h.prefix}.participant.updated`,
    });
    const before = await delivered();
    const s = await h.session({ auto_reveal: true });
    const [a, b] = await h.stories(s, ['A', 'B']);
    const cy = await h.join(s.code, 'Cy');
    const [ann, bob] = await h.castVotes(s, ['5', '8']);
    await h.publish('participant.presence', {
      session_id: s.id,
      session_code: s.code,
      participant: { id: cy, name: 'Cy' },
      connected: true,
    });
    await settle();
    expect(await delivered()).toEqual(before);
    expect(await statusOf(s.owner_id, a!)).toBe('voting');

    // Cy becomes an observer: everyone left to vote has voted.
    const observer = await h.sessionsApi.patch(`/sessions/${s.code}/participants/${cy}`, {
      body: { role: 'observer' },
      ...as(s.owner_id),
    });
    expect(observer.status).toBe(200);
    await h.event('story.revealed', (d) => d.story.id === a);
    expect(await delivered()).toEqual({ ...before, updated: before.updated + 1 });

    // On B, Ann votes and Bob leaves.
    expect((await h.vote(s.code, ann!, '3')).status).toBe(200);
    const removed = await h.sessionsApi.delete(`/sessions/${s.code}/participants/${bob}`, as(s.owner_id));
    expect(removed.status).toBe(200);
    await h.event('story.revealed', (d) => d.story.id === b);
    expect(await delivered()).toEqual({ left: before.left + 1, updated: before.updated + 1 });
  });

  it('takes over from the durable of every participant event: a leave it had not handled reveals, and it is removed', async () => {
    const s = await h.session({ auto_reveal: true });
    const [a] = await h.stories(s, ['A']);
    const bob = await h.join(s.code, 'Bob');
    await h.castVotes(s, ['5']);
    // An earlier version: the unit stopped, its one durable of every participant event there.
    await h.stopStories();
    const m = await jsm();
    for (const durable of [LEFT, UPDATED]) await m.consumers.delete(stream(), durable);
    await m.consumers.add(stream(), {
      durable_name: RETIRED,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
      filter_subject: `${h.prefix}.participant.>`,
    });
    const removed = await h.sessionsApi.delete(`/sessions/${s.code}/participants/${bob}`, as(s.owner_id));
    expect(removed.status).toBe(200);

    const retiredAt = (await m.consumers.info(stream(), RETIRED)).delivered.stream_seq;
    await h.startStories();
    await h.event('story.revealed', (d) => d.story.id === a);
    // Each started where the retired one stood, not at the stream's first event.
    for (const durable of [LEFT, UPDATED])
      expect((await m.consumers.info(stream(), durable)).config).toMatchObject({
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: retiredAt + 1,
      });
    await until(async () => (await participantDurables())[RETIRED] === undefined);
    expect(await participantDurables()).toEqual({
      [LEFT]: `${h.prefix}.participant.left`,
      [UPDATED]: `${h.prefix}.participant.updated`,
    });
  });
});
