import { as, startStories, until, type StoriesHarness } from './support/stories-harness.ts';

/** The internal session lookup (not the round command nor the round's counts). */
const LOOKUP = /^GET \/internal\/sessions\/[^/]+$/;

describe('the read model of sessions', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  it('keeps a session from session.created and answers from it without looking it up', async () => {
    const s = await h.session();
    const before = h.sessionsCalls(LOOKUP);
    const res = await h.client.post(`/sessions/${s.code}/stories`, {
      body: { title: 'A' },
      ...as(s.owner_id),
    });
    expect(res.status).toBe(201);
    expect(h.sessionsCalls(LOOKUP)).toBe(before);
    expect(await h.readModel(s.id)).toMatchObject({ code: s.code, owner_id: s.owner_id });
  });

  it('a story added before its session.created was consumed does not 404, and the late event changes nothing', async () => {
    const s = await h.session();
    const snapshot = await h.snapshot(s.id);
    // As if the event had not arrived yet.
    await h.service.runtime.db.fork().getConnection().execute('delete from sessions where id = ?', [s.id]);
    const before = h.sessionsCalls(LOOKUP);
    const res = await h.client.post(`/sessions/${s.code}/stories`, {
      body: { title: 'A' },
      ...as(s.owner_id),
    });
    expect(res.status).toBe(201);
    expect(res.body.story.session_id).toBe(s.id);
    expect(h.sessionsCalls(LOOKUP)).toBe(before + 1);
    await h.publish('session.created', { session: snapshot });
    expect((await h.client.get(`/sessions/${s.code}/stories`)).body.stories).toHaveLength(1);
  });

  it('answers 404 when neither the read model nor the sessions service knows the code', async () => {
    const res = await h.client.get('/sessions/NOPE23/stories');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('session_not_found');
  });

  it('applies session.updated and ignores a snapshot older than the one it has', async () => {
    const s = await h.session();
    const snapshot = await h.snapshot(s.id);
    const later = new Date(Date.now() + 60_000).toISOString();
    await h.publish('session.updated', {
      session: { ...snapshot, voteby_enabled: true, record_vote_names: true, updated_at: later },
      changed: ['voteby_enabled', 'record_vote_names'],
    });
    await until(async () => (await h.readModel(s.id))?.voteby_enabled === true);
    await h.publish('session.archived', { session: { ...snapshot, status: 'archived' } }); // older: ignored
    await h.publish('session.updated', {
      session: { ...snapshot, name: 'Newest', updated_at: new Date(Date.now() + 120_000).toISOString() },
      changed: ['name'],
    });
    const row = await until(async () => {
      const r = await h.readModel(s.id);
      return r?.name === 'Newest' ? r : undefined;
    });
    expect(row).toMatchObject({ status: 'active', voteby_enabled: false, record_vote_names: false });
  });

  it('keeps the session a consumer saw when the stories service restarts', async () => {
    const s = await h.session();
    await h.restart();
    const before = h.sessionsCalls(LOOKUP);
    expect((await h.client.get(`/sessions/${s.code}/stories`)).status).toBe(200);
    expect(h.sessionsCalls(LOOKUP)).toBe(before);
  });
});
