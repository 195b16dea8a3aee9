import { randomUUID } from 'node:crypto';
import { as, startStories, until, type StoriesHarness } from './support/stories-harness.ts';

describe('analytics of a session', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  it('gives the owner the distribution, outliers, history and totals of the revealed stories', async () => {
    const s = await h.session({ record_vote_names: true });
    const add = async (title: string) =>
      (await h.client.post(`/sessions/${s.code}/stories`, { body: { title }, ...as(s.owner_id) })).body.story
        .id;
    const a = await add('A');
    await add('B');
    await h.castVotes(s, ['5', '5', '13'], ['Ann', 'Bob', 'Cy']);
    await h.client.post(`/stories/${a}/reveal`, as(s.owner_id));

    expect((await h.client.get(`/sessions/${s.code}/analytics`, as(randomUUID()))).status).toBe(403);
    const res = await h.client.get(`/sessions/${s.code}/analytics`, as(s.owner_id));
    expect(res.status).toBe(200);
    expect(res.body.analytics).toMatchObject({
      distribution: [{ value: '5', count: 1 }],
      vote_distribution: [
        { value: '5', count: 2 },
        { value: '13', count: 1 },
      ],
      outliers: [{ story_id: a, participant: { name: 'Cy' }, value: '13', final_estimate: '5', distance: 2 }],
      history: [{ story_id: a, title: 'A', final_estimate: '5', agreement: 2 / 3 }],
      totals: { stories: 2, revealed: 1, points: 5 },
    });
    expect(res.body.data.analytics).toEqual(res.body.analytics);
  });

  it('sends long analytics gzipped to a client that takes it, and as they are to one that does not', async () => {
    const s = await h.session();
    const ids = await h.stories(
      s,
      Array.from({ length: 45 }, (_, i) => `${i} ${'x'.repeat(190)}`),
    );
    for (const id of ids) await h.client.post(`/stories/${id}/reveal`, as(s.owner_id));
    const read = (encoding: string) =>
      h.client.get(`/sessions/${s.code}/analytics`, {
        headers: { ...as(s.owner_id).headers, 'accept-encoding': encoding },
      });
    const zipped = await read('gzip');
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toMatch(/Accept-Encoding/i);
    expect(zipped.body.analytics.history).toHaveLength(45);
    const plain = await read('identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.body.analytics).toEqual(zipped.body.analytics);
  });

  it('shows every change at once when it is asked again: an edit, a reveal, names turned off, a delete', async () => {
    const s = await h.session({ record_vote_names: true });
    const [a, b] = await h.stories(s, ['A', 'B']);
    await h.castVotes(s, ['3', '3'], ['Ann', 'Bob']);
    await h.client.post(`/stories/${a}/reveal`, as(s.owner_id));
    const analytics = async () =>
      (await h.client.get(`/sessions/${s.code}/analytics`, as(s.owner_id))).body.analytics;
    const first = await analytics();
    expect(await analytics()).toEqual(first);
    expect(first.history).toEqual([expect.objectContaining({ title: 'A' })]);

    await h.client.patch(`/stories/${a}`, { body: { title: 'A, renamed' }, ...as(s.owner_id) });
    expect((await analytics()).history).toEqual([expect.objectContaining({ title: 'A, renamed' })]);

    await h.castVotes(s, ['8'], ['Cy']);
    await h.client.post(`/stories/${b}/reveal`, as(s.owner_id));
    expect((await analytics()).totals).toEqual({ stories: 2, revealed: 2, points: 11 });

    const off = await h.sessionsApi.patch(`/sessions/${s.code}`, {
      body: { record_vote_names: false },
      ...as(s.owner_id),
    });
    expect(off.status).toBe(200);
    const unnamed = await analytics();
    expect(unnamed.history[0].votes).toEqual([
      { participant: { name: null }, value: '3' },
      { participant: { name: null }, value: '3' },
    ]);

    await h.client.delete(`/stories/${b}`, as(s.owner_id));
    expect((await analytics()).totals).toEqual({ stories: 1, revealed: 1, points: 3 });
  });

  it('goes by the deck the sessions service has now, even while the event of its change is on its way', async () => {
    const s = await h.session();
    const [a] = await h.stories(s, ['A']);
    await h.castVotes(s, ['5', '5', '13']);
    await h.client.post(`/stories/${a}/reveal`, as(s.owner_id));
    const before = (await h.readModel(s.id))!.deck;
    const changed = await h.sessionsApi.patch(`/sessions/${s.code}`, {
      body: { voting_system: 'powers_of_two' },
      ...as(s.owner_id),
    });
    expect(changed.status).toBe(200);
    // The read model as it was before the change's event arrived.
    await until(async () => (await h.readModel(s.id))?.voting_system === 'powers_of_two');
    await h.service.runtime.db
      .fork()
      .getConnection()
      .execute(
        `update sessions set voting_system = 'fibonacci', deck = ?::jsonb,
           updated_at = updated_at - interval '1 second' where id = ?`,
        [JSON.stringify(before), s.id],
      );
    const res = await h.client.get(`/sessions/${s.code}/analytics`, as(s.owner_id));
    // 5 and 13 are no cards of the powers of two: no vote counts, none is an outlier.
    expect(res.body.analytics).toMatchObject({ vote_distribution: [], outliers: [] });
  });
});
