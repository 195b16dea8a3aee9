import { until } from '@pp/testing';
import { rooms } from './support/room.ts';
import { asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

const join = (code: string, body: unknown, headers: Record<string, string> = {}) =>
  h.client.post(`/sessions/${code}/join`, { body, headers });
const participantsOf = async (code: string) =>
  (await h.client.get(`/sessions/${code}/participants`)).body.participants;

/** A transaction of the test's own, on its own connection, held open between steps. */
const openTransaction = async () => {
  const em = h.runtime.db.fork();
  await em.begin();
  const sql = (query: string, params: unknown[] = []) =>
    em.getConnection().execute(query, params, 'all', em.getTransactionContext());
  return { sql, commit: () => em.commit() };
};
const votesIn = async (storyId: string) =>
  h.runtime.db
    .fork()
    .getConnection()
    .execute('select count(*)::int as n from votes where story_id = ?', [storyId]);
const settled = (p: Promise<unknown>, ms = 300) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

describe('participants: joining', () => {
  it('lets a guest join by name as a participant, with a token and the public session', async () => {
    const session = await r.createSession('ann');
    const res = await join(session.code.toLowerCase(), { name: '  Bob  ' });
    expect(res.status).toBe(200);
    expect(res.body.participant).toEqual({
      id: expect.any(Number),
      name: 'Bob',
      role: 'participant',
      token: expect.any(String),
    });
    expect(res.body.session).toMatchObject({ id: session.id, code: session.code, participants_count: 1 });
    expect(res.body.session).not.toHaveProperty('owner_id');
    const event = await until(async () =>
      h.eventsOf('participant.joined').find((e) => e.data.session_id === session.id),
    );
    expect(event.data.participant).toEqual({ id: res.body.participant.id, name: 'Bob', role: 'participant' });
  });

  it('needs a name of 1 to 64 characters from a guest', async () => {
    const session = await r.createSession('ann');
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(65) }]) {
      const res = await join(session.code, body);
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveProperty('name');
    }
    expect(await participantsOf(session.code)).toEqual([]);
  });

  it('takes the signed-in user’s profile name, makes the owner moderator, and returns the same participant twice', async () => {
    const session = await r.createSession('ann');
    const owner = await join(session.code, {}, asUser('ann', 'Ann Owner'));
    expect(owner.body.participant).toMatchObject({ name: 'Ann Owner', role: 'moderator' });
    expect(owner.body.session).toHaveProperty('owner_id', 'ann');
    const first = await join(session.code, { name: 'ignored' }, asUser('carl', 'Carl'));
    const again = await join(session.code, {}, asUser('carl', 'Carl'));
    expect(first.body.participant).toMatchObject({ name: 'Carl', role: 'participant' });
    expect(again.body.participant.id).toBe(first.body.participant.id);
    expect(again.body.participant.token).not.toBe(first.body.participant.token);
    expect(await participantsOf(session.code)).toHaveLength(2);
  });

  it('joins the same signed-in user once when both joins race', async () => {
    const session = await r.createSession('ann');
    const both = await Promise.all(
      Array.from({ length: 8 }, () => join(session.code, {}, asUser('dora', 'Dora'))),
    );
    expect(both.map((res) => res.status)).toEqual(Array(8).fill(200));
    expect(new Set(both.map((res) => res.body.participant.id)).size).toBe(1);
    expect(await participantsOf(session.code)).toHaveLength(1);
  });

  it('joins an observer when asked, and refuses a role other than participant or observer', async () => {
    const session = await r.createSession('ann');
    expect((await join(session.code, { name: 'Olga', role: 'observer' })).body.participant.role).toBe(
      'observer',
    );
    const moderator = await join(session.code, { name: 'Eve', role: 'moderator' });
    expect(moderator.status).toBe(422);
    expect(moderator.body.errors).toHaveProperty('role');
  });

  it('refuses to join a session that is not active with 409 session_not_active', async () => {
    const session = await r.createSession('ann');
    for (const status of ['paused', 'completed', 'archived']) {
      await h.client.patch(`/sessions/${session.code}`, { body: { status }, headers: asUser('ann') });
      const res = await join(session.code, { name: 'Late' });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('session_not_active');
    }
    expect((await join('ZZZZZZ', { name: 'Lost' })).status).toBe(404);
  });
});

describe('participants: listing and managing', () => {
  it('lists id, name and role only: never a token', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const res = await h.client.get(`/sessions/${session.code}/participants`);
    expect(res.status).toBe(200);
    expect(res.body.participants).toEqual([
      { id: bob.id, name: 'Bob', role: 'participant', connected: false },
    ]);
    expect(res.text).not.toContain(bob.token);
    expect(res.text).not.toMatch(/token/);
  });

  it('keeps the room of an archived session as it is: removing or re-roling someone is 409 session_archived', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    await h.client.patch(`/sessions/${session.code}`, {
      body: { status: 'archived' },
      headers: asUser('ann'),
    });
    const path = `/sessions/${session.code}/participants/${bob.id}`;
    const removed = await h.client.delete(path, { headers: asUser('ann') });
    const reroled = await h.client.patch(path, { body: { role: 'observer' }, headers: asUser('ann') });
    expect([removed.status, removed.body.error?.code]).toEqual([409, 'session_archived']);
    expect([reroled.status, reroled.body.error?.code]).toEqual([409, 'session_archived']);
    expect(await participantsOf(session.code)).toEqual([
      { id: bob.id, name: 'Bob', role: 'participant', connected: false },
    ]);
    await h.client.patch(`/sessions/${session.code}`, { body: { status: 'active' }, headers: asUser('ann') });
    expect((await h.client.delete(path, { headers: asUser('ann') })).status).toBe(200);
  });

  it('lets the owner remove a participant (200) but not a stranger (403)', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const path = `/sessions/${session.code}/participants/${bob.id}`;
    expect((await h.client.delete(path, { headers: asUser('mallory') })).status).toBe(403);
    expect((await h.client.delete(path)).status).toBe(401);
    const removed = await h.client.delete(path, { headers: asUser('ann') });
    expect(removed.status).toBe(200);
    expect(removed.body.participant).toEqual({ id: bob.id, name: 'Bob', role: 'participant' });
    expect(await participantsOf(session.code)).toEqual([]);
    expect((await h.client.delete(path, { headers: asUser('ann') })).status).toBe(404);
    const left = await until(async () =>
      h.eventsOf('participant.left').find((e) => e.data.session_id === session.id),
    );
    expect(left.data).toEqual({
      session_id: session.id,
      session_code: session.code,
      participant: { id: bob.id, name: 'Bob', role: 'participant' },
    });
  });

  it('does not touch a participant of another session through this one', async () => {
    const mine = await r.createSession('ann');
    const other = await r.createSession('ann');
    const stranger = await r.join(other.code, 'Stranger');
    const res = await h.client.delete(`/sessions/${mine.code}/participants/${stranger.id}`, {
      headers: asUser('ann'),
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('participant_not_found');
    expect(await participantsOf(other.code)).toHaveLength(1);
  });

  it('hands the moderator role over and makes observers', async () => {
    const session = await r.createSession('ann');
    const ann = (await join(session.code, {}, asUser('ann', 'Ann'))).body.participant;
    const bob = await r.join(session.code, 'Bob');
    const setRole = (id: number, role: string, user = 'ann') =>
      h.client.patch(`/sessions/${session.code}/participants/${id}`, {
        body: { role },
        headers: asUser(user),
      });
    expect((await setRole(bob.id, 'moderator', 'mallory')).status).toBe(403);
    const handed = await setRole(bob.id, 'moderator');
    expect(handed.status).toBe(200);
    expect(handed.body.participant).toEqual({ id: bob.id, name: 'Bob', role: 'moderator' });
    expect(await participantsOf(session.code)).toEqual([
      { id: ann.id, name: 'Ann', role: 'participant', connected: false },
      { id: bob.id, name: 'Bob', role: 'moderator', connected: false },
    ]);
    expect((await setRole(ann.id, 'observer')).body.participant.role).toBe('observer');
    expect((await setRole(ann.id, 'owner')).status).toBe(422);
    const updates = await until(async () => {
      const found = h.eventsOf('participant.updated').filter((e) => e.data.session_id === session.id);
      return found.length === 3 && found;
    });
    // The one who handed the role over is told of too: a client of the room sees one moderator.
    expect(
      updates.map((e) => [e.data.participant.name, e.data.previous_role, e.data.participant.role]),
    ).toEqual([
      ['Bob', 'participant', 'moderator'],
      ['Ann', 'moderator', 'participant'],
      ['Ann', 'participant', 'observer'],
    ]);
  });

  it('makes a vote wait for its voter becoming an observer, then refuses it (no vote left behind)', async () => {
    const session = await r.createSession('ann');
    const story = await r.openStory(session);
    const bob = await r.join(session.code, 'Bob');
    expect((await r.vote(session.code, bob.id, '3')).status).toBe(200);

    // The role change's steps, held open after its votes went: a vote now must not slip in.
    const change = await openTransaction();
    await change.sql('select id from participants where id = ? for update', [bob.id]);
    await change.sql('delete from votes where participant_id = ?', [bob.id]);
    const vote = r.vote(session.code, bob.id, '5');
    expect(await settled(vote)).toBe(false);
    await change.sql(`update participants set role = 'observer' where id = ?`, [bob.id]);
    await change.commit();
    expect((await vote).status).toBe(403);
    expect(await votesIn(story.id)).toEqual([{ n: 0 }]);
  });

  it('makes removing a participant wait for its vote in flight, then takes that vote away too', async () => {
    const session = await r.createSession('ann');
    const story = await r.openStory(session);
    const bob = await r.join(session.code, 'Bob');

    // A vote in flight holds its voter's row share-locked until it commits.
    const vote = await openTransaction();
    await vote.sql('select id from participants where id = ? for share', [bob.id]);
    const removal = h.client.delete(`/sessions/${session.code}/participants/${bob.id}`, {
      headers: asUser('ann'),
    });
    expect(await settled(removal)).toBe(false);
    await vote.sql(
      `insert into votes (story_id, participant_id, value, created_at, updated_at) values (?, ?, '8', now(), now())`,
      [story.id, bob.id],
    );
    await vote.commit();
    expect((await removal).status).toBe(200);
    expect(await votesIn(story.id)).toEqual([{ n: 0 }]);
  });
});

describe('participants: a room everyone opens at once', () => {
  /**
   * This database's connections waiting for a lock (the unit's pooled ones, here), read on the test's
   * own transaction: the pool may have none to spare. Its statistics snapshot is cleared each time.
   */
  const waitingOnLocks = async (tx: Awaited<ReturnType<typeof openTransaction>>) => {
    await tx.sql('select pg_stat_clear_snapshot()');
    const [found] = (await tx.sql(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
    )) as Array<{ n: number }>;
    return found!.n;
  };

  it('lets 40 joins of one room wait their turn holding one pooled connection: all join, and other rooms answer meanwhile', async () => {
    const session = await r.createSession('ann');
    const other = await r.createSession('bea');
    // The room's row is held (a change of the session under way) while everyone opens the link.
    const held = await openTransaction();
    await held.sql('select id from sessions where id = ? for no key update', [session.id]);
    const joins = Array.from({ length: 40 }, (_, i) => join(session.code, { name: `Guest ${i}` }));
    await until(async () => (await waitingOnLocks(held)) > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // One join of the room at a time waits on its row; the others wait in line, holding nothing.
    expect(await waitingOnLocks(held)).toBe(1);
    // The pool is free for everyone else: another room takes a join, and its list answers.
    expect((await join(other.code, { name: 'Elsewhere' })).status).toBe(200);
    expect((await participantsOf(other.code)).map((p: { name: string }) => p.name)).toEqual(['Elsewhere']);
    await held.commit();

    const answers = await Promise.all(joins);
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
    const ids = new Set(answers.map((a) => a.body.participant.id));
    expect(ids.size).toBe(40);
    expect(await participantsOf(session.code)).toHaveLength(40);
  });
});
