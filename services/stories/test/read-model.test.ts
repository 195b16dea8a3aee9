import { as, startStories, until, type StoriesHarness } from './support/stories-harness.ts';

describe('the read model of sessions', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  it('keeps a session from session.created and answers from it without asking the sessions service', async () => {
    const s = await h.session();
    const before = h.fake.calls.lookup;
    const res = await h.client.post(`/sessions/${s.code}/stories`, {
      body: { title: 'A' },
      ...as(s.owner_id),
    });
    expect(res.status).toBe(201);
    expect(h.fake.calls.lookup).toBe(before);
    expect(await h.readModel(s.id)).toMatchObject({ code: s.code, owner_id: s.owner_id, deck: s.deck });
  });

  it('a story added right after its session was created (event not consumed yet) does not 404', async () => {
    const s = h.fake.addSession(); // known to sessions, not announced yet
    expect(await h.readModel(s.id)).toBeUndefined();
    const res = await h.client.post(`/sessions/${s.code}/stories`, {
      body: { title: 'A' },
      ...as(s.owner_id),
    });
    expect(res.status).toBe(201);
    expect(res.body.story.session_id).toBe(s.id);
    expect(h.fake.calls.lookup).toBeGreaterThan(0);
    // the late event changes nothing
    await h.publish('session.created', { session: s });
    expect((await h.client.get(`/sessions/${s.code}/stories`)).body.stories).toHaveLength(1);
  });

  it('answers 404 when neither the read model nor the sessions service knows the code', async () => {
    const res = await h.client.get('/sessions/NOPE23/stories');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('session_not_found');
  });

  it('applies session.updated and ignores a snapshot older than the one it has', async () => {
    const s = await h.session();
    const later = new Date(Date.now() + 60_000).toISOString();
    await h.publish('session.updated', {
      session: { ...s, auto_reveal: true, record_vote_names: false, updated_at: later },
      changed: ['auto_reveal', 'record_vote_names'],
    });
    await until(async () => (await h.readModel(s.id))?.auto_reveal === true);
    await h.publish('session.archived', { session: { ...s, status: 'archived' } }); // older: ignored
    await h.publish('session.updated', {
      session: { ...s, name: 'Newest', updated_at: new Date(Date.now() + 120_000).toISOString() },
      changed: ['name'],
    });
    const row = await until(async () => {
      const r = await h.readModel(s.id);
      return r?.name === 'Newest' ? r : undefined;
    });
    expect(row).toMatchObject({ status: 'active', auto_reveal: false, record_vote_names: true });
  });

  it('keeps the session a consumer saw when the stories service restarts', async () => {
    const s = await h.session();
    await h.restart();
    const before = h.fake.calls.lookup;
    expect((await h.client.get(`/sessions/${s.code}/stories`)).status).toBe(200);
    expect(h.fake.calls.lookup).toBe(before);
  });
});
