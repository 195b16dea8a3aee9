import { as, startStories, type StoriesHarness, type TestSession } from './support/stories-harness.ts';

/**
 * A story that goes back to `pending` keeps its votes. In an auto-reveal session, the round it comes
 * back to may be complete already (a voter it waited for left meanwhile): it is revealed as soon as it
 * is current again, whatever made it current.
 */
describe('auto_reveal of a story made current with its kept votes complete', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  /**
   * Stories A, B, C; Ann and Bob voted on A, then B was made current, then Carl (who had not voted)
   * was removed: A waits as `pending` with every vote it needs. Its id, and B's, C's.
   */
  async function completeRoundWaiting(s: TestSession) {
    const ids = await h.stories(s, ['A', 'B', 'C']);
    const [ann, bob, carl] = [
      await h.join(s.code, 'Ann'),
      await h.join(s.code, 'Bob'),
      await h.join(s.code, 'Carl'),
    ];
    for (const id of [ann, bob]) expect((await h.vote(s.code, id, '5')).status).toBe(200);
    expect((await h.client.post(`/stories/${ids[1]}/activate`, as(s.owner_id))).status).toBe(200);
    const removed = await h.sessionsApi.delete(`/sessions/${s.code}/participants/${carl}`, as(s.owner_id));
    expect(removed.status).toBe(200);
    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(room.body.stories.map((x: { status: string }) => x.status)).toEqual([
      'pending',
      'voting',
      'pending',
    ]);
    return ids as [string, string, string];
  }
  const statuses = async (s: TestSession) =>
    (await h.client.get(`/sessions/${s.code}/stories`)).body.stories.map(
      (x: { status: string; final_estimate: string | null }) => [x.status, x.final_estimate],
    );

  it('activating it reveals it before the answer, and the next pending story is current', async () => {
    const s = await h.session({ auto_reveal: true });
    const [a, b] = await completeRoundWaiting(s);
    const res = await h.client.post(`/stories/${a}/activate`, as(s.owner_id));
    expect(res.status).toBe(200);
    expect(res.body.story).toMatchObject({ id: a, status: 'revealed', final_estimate: '5' });
    expect(await statuses(s)).toEqual([
      ['revealed', '5'],
      ['voting', null],
      ['pending', null],
    ]);
    expect(await h.currentStory(s.code)).toBe(b);
  });

  it('revealing the current story reveals it too when it is the next one', async () => {
    const s = await h.session({ auto_reveal: true });
    const [a, b, c] = await completeRoundWaiting(s);
    const res = await h.client.post(`/stories/${b}/reveal`, as(s.owner_id));
    expect(res.status).toBe(200);
    expect(res.body.next_story).toMatchObject({ id: a, status: 'revealed' });
    expect(await statuses(s)).toEqual([
      ['revealed', '5'],
      ['revealed', null],
      ['voting', null],
    ]);
    expect(await h.currentStory(s.code)).toBe(c);
  });

  it('deleting the current story reveals it when it is the next one', async () => {
    const s = await h.session({ auto_reveal: true });
    const [a, b, c] = await completeRoundWaiting(s);
    const res = await h.client.delete(`/stories/${b}`, as(s.owner_id));
    expect(res.status).toBe(200);
    expect(res.body.next_story).toMatchObject({ id: a, status: 'revealed' });
    expect(await h.currentStory(s.code)).toBe(c);
  });

  it('with auto_reveal off, activating it leaves it open', async () => {
    const s = await h.session({ auto_reveal: false });
    const [a] = await completeRoundWaiting(s);
    const res = await h.client.post(`/stories/${a}/activate`, as(s.owner_id));
    expect(res.body.story).toMatchObject({ id: a, status: 'voting' });
    expect(await h.currentStory(s.code)).toBe(a);
  });
});
