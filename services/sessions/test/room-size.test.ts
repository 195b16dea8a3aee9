/**
 * A room at size: the participant list in pages, and a maximum of participants that concurrent joins
 * cannot pass together (this room holds 5).
 */
import { rooms } from './support/room.ts';
import { asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

const MAX = 5;
let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions({}, { ROOM_MAX_PARTICIPANTS: String(MAX) });
  r = rooms(h);
});
afterAll(() => h.stop());

const join = (code: string, body: unknown, headers: Record<string, string> = {}) =>
  h.client.post(`/sessions/${code}/join`, { body, headers });

describe('participants in pages', () => {
  it('pages the list with page and per_page as the session list does, and answers whole without them', async () => {
    const session = await r.createSession('ann');
    const joined = [];
    for (const name of ['A', 'B', 'C', 'D', 'E']) joined.push((await r.join(session.code, name)).id);

    const whole = await h.client.get(`/sessions/${session.code}/participants`);
    expect(whole.status).toBe(200);
    expect(whole.body.participants.map((p: { id: number }) => p.id)).toEqual(joined);
    expect(whole.body).not.toHaveProperty('meta');

    const second = await h.client.get(`/sessions/${session.code}/participants?page=2&per_page=2`);
    expect(second.status).toBe(200);
    expect(second.body.participants.map((p: { name: string }) => p.name)).toEqual(['C', 'D']);
    expect(second.body.meta).toEqual({ current_page: 2, per_page: 2, total: 5, last_page: 3 });

    const onlyPage = await h.client.get(`/sessions/${session.code}/participants?page=1`);
    expect(onlyPage.body.meta).toEqual({ current_page: 1, per_page: 15, total: 5, last_page: 1 });
    expect(onlyPage.body.participants).toHaveLength(5);

    const past = await h.client.get(`/sessions/${session.code}/participants?page=9&per_page=2`);
    expect(past.body).toMatchObject({ participants: [], meta: { total: 5, last_page: 3 } });
  });

  it('refuses a page or per_page out of bounds (422) or not a number (400)', async () => {
    const session = await r.createSession('ann');
    for (const query of ['per_page=0', 'per_page=101', 'page=0'])
      expect((await h.client.get(`/sessions/${session.code}/participants?${query}`)).status).toBe(422);
    const bad = await h.client.get(`/sessions/${session.code}/participants?per_page=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_query');
  });
});

describe('a room’s maximum of participants', () => {
  it('takes exactly the maximum of concurrent joins, observers counted, and refuses the rest with 409 room_full', async () => {
    const session = await r.createSession('ann');
    await r.join(session.code, 'Watcher', { role: 'observer' });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => join(session.code, { name: `Guest ${i}` })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX - 1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(12 - (MAX - 1));
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body.error.code).toBe('room_full');
    const listed = await h.client.get(`/sessions/${session.code}/participants`);
    expect(listed.body.participants).toHaveLength(MAX);
    const looked = await h.client.get(`/sessions/${session.code}`);
    expect(looked.body.session.participants_count).toBe(MAX);
  });

  it('gives a signed-in user already in a full room its participant again, and takes one more once someone left', async () => {
    const session = await r.createSession('ann');
    const carl = await join(session.code, {}, asUser('carl', 'Carl'));
    const guests = [];
    for (let i = 0; i < MAX - 1; i++) guests.push(await r.join(session.code, `Guest ${i}`));
    expect((await join(session.code, { name: 'Late' })).status).toBe(409);
    expect((await join(session.code, {}, asUser('dora', 'Dora'))).status).toBe(409);

    const again = await join(session.code, {}, asUser('carl', 'Carl'));
    expect(again.status).toBe(200);
    expect(again.body.participant.id).toBe(carl.body.participant.id);

    const removed = await h.client.delete(`/sessions/${session.code}/participants/${guests[0]!.id}`, {
      headers: asUser('ann'),
    });
    expect(removed.status).toBe(200);
    expect((await join(session.code, { name: 'Late' })).status).toBe(200);
    expect((await join(session.code, { name: 'Later' })).status).toBe(409);
  });
});
