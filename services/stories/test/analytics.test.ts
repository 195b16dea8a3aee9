import { randomUUID } from 'node:crypto';
import { as, startStories, type StoriesHarness } from './support/stories-harness.ts';

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
});
