import { randomUUID } from 'node:crypto';
import { as, startStories, until, type StoriesHarness } from './support/stories-harness.ts';

describe('export of a session', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  async function revealedSession(recordVoteNames: boolean) {
    const s = await h.session({ record_vote_names: recordVoteNames });
    const add = (title: string, extra = {}) =>
      h.client.post(`/sessions/${s.code}/stories`, { body: { title, ...extra }, ...as(s.owner_id) });
    const a = (await add('Login, "fast"', { description: 'line 1\nline 2' })).body.story.id;
    const b = (await add('=HYPERLINK("http://x")')).body.story.id;
    await h.castVotes(s, ['5', '8', '8'], ['Ann', 'Bob', 'Cy']);
    await h.client.post(`/stories/${a}/reveal`, as(s.owner_id));
    return { s, a, b };
  }

  it('as json: every story with status, final estimate and named votes, in the envelope', async () => {
    const { s, a, b } = await revealedSession(true);
    const res = await h.client.get(`/sessions/${s.code}/export?format=json`, as(s.owner_id));
    expect(res.status).toBe(200);
    expect(res.body.session).toEqual({ id: s.id, code: s.code, name: s.name });
    expect(res.body.data.stories).toEqual(res.body.stories);
    expect(res.body.stories).toEqual([
      expect.objectContaining({
        id: a,
        position: 1,
        status: 'revealed',
        final_estimate: '8',
        votes: [
          { participant: { id: expect.any(Number), name: 'Ann' }, value: '5' },
          { participant: { id: expect.any(Number), name: 'Bob' }, value: '8' },
          { participant: { id: expect.any(Number), name: 'Cy' }, value: '8' },
        ],
      }),
      expect.objectContaining({ id: b, position: 2, status: 'voting', final_estimate: null, votes: [] }),
    ]);
  });

  it('names the session as it is now, even while the event of its rename is on its way', async () => {
    const { s } = await revealedSession(false);
    const renamed = await h.sessionsApi.patch(`/sessions/${s.code}`, {
      body: { name: 'Sprint 43' },
      ...as(s.owner_id),
    });
    expect(renamed.status).toBe(200);
    // The read model as it was before the rename's event arrived.
    await until(async () => (await h.readModel(s.id))?.name === 'Sprint 43');
    await h.service.runtime.db
      .fork()
      .getConnection()
      .execute(`update sessions set name = ?, updated_at = updated_at - interval '1 second' where id = ?`, [
        s.name,
        s.id,
      ]);
    const res = await h.client.get(`/sessions/${s.code}/export?format=json`, as(s.owner_id));
    expect(res.body.session).toEqual({ id: s.id, code: s.code, name: 'Sprint 43' });
  });

  it('as csv (the default): a header row, one quoted row per story, as an attachment', async () => {
    const { s, a, b } = await revealedSession(true);
    const res = await h.client.get(`/sessions/${s.code.toLowerCase()}/export`, as(s.owner_id));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="session-${s.code}-stories.csv"`,
    );
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe(
      '"position","id","title","description","acceptance_criteria","status","final_estimate","revealed_at","votes_count","votes"',
    );
    expect(res.text).toContain(`"1","${a}","Login, ""fast""","line 1\nline 2","","revealed","8","`);
    expect(res.text).toContain('"3","Ann: 5; Bob: 8; Cy: 8"');
    // a title a spreadsheet would run as a formula is neutralised
    expect(res.text).toContain(`"2","${b}","'=HYPERLINK(""http://x"")"`);
    expect(lines.at(-1)).toBe('');
  });

  it('without record_vote_names the export has the values but not the names', async () => {
    const { s } = await revealedSession(false);
    const json = await h.client.get(`/sessions/${s.code}/export?format=json`, as(s.owner_id));
    expect(json.body.stories[0].votes.map((v: { participant: unknown }) => v.participant)).toEqual([
      { id: null, name: null },
      { id: null, name: null },
      { id: null, name: null },
    ]);
    const csv = await h.client.get(`/sessions/${s.code}/export?format=csv`, as(s.owner_id));
    expect(csv.text).toContain('"3","5; 8; 8"');
    expect(csv.text).not.toContain('Ann');
  });

  it('is for the owner only, and refuses an unknown format', async () => {
    const { s } = await revealedSession(true);
    expect((await h.client.get(`/sessions/${s.code}/export`)).status).toBe(401);
    expect((await h.client.get(`/sessions/${s.code}/export`, as(randomUUID()))).status).toBe(403);
    expect((await h.client.get(`/sessions/${s.code}/export?format=xml`, as(s.owner_id))).status).toBe(422);
  });
});
