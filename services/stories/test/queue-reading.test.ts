import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@pp/db';
import { planQueue } from '../src/db/queue.repository.ts';
import { as, startStories, type StoriesHarness, type TestSession } from './support/stories-harness.ts';

/**
 * Adding, activating, resetting and revealing a story read only the current part of the queue (the
 * current story, the target, the first pending one) and its length; moving and deleting read it whole.
 * In a long queue whose order is not the order the stories were added in, each still finds the right
 * stories and places.
 */
describe('changes of the current story in a long queue', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  type Listed = { id: string; title: string; status: string; position: number };
  const queue = async (code: string) =>
    ((await h.client.get(`/sessions/${code}/stories`)).body.stories as Listed[]).map(
      (s) => `${s.position} ${s.title} ${s.status}`,
    );
  const post = (s: TestSession, path: string, body?: unknown) =>
    h.client.post(path, { ...(body === undefined ? {} : { body }), ...as(s.owner_id) });

  it('reads the current story, the target, the first pending story and the length of the queue', async () => {
    const s = await h.session();
    const ids = await h.stories(s, ['A', 'B', 'C', 'D', 'E', 'F']);
    // E moves to the front of the waiting stories: the first pending story by place, not by age.
    expect(
      (await h.client.patch(`/stories/${ids[4]}`, { body: { position: 2 }, ...as(s.owner_id) })).status,
    ).toBe(200);
    const em = h.service.runtime.db.fork() as EntityManager;
    // Read as someone who does not own the session: no round version is taken, nothing changes.
    const current = await planQueue(em, { storyId: ids[3]! }, randomUUID(), 'current');
    expect(current?.roundVersion).toBeUndefined();
    expect(current?.size).toBe(6);
    expect(current?.stories.map((x) => [x.title, x.status, x.position])).toEqual([
      ['A', 'voting', 1],
      ['E', 'pending', 2],
      ['D', 'pending', 5],
    ]);
    const whole = await planQueue(em, { storyId: ids[3]! }, randomUUID());
    expect(whole?.size).toBe(6);
    expect(whole?.stories.map((x) => x.title)).toEqual(['A', 'E', 'B', 'C', 'D', 'F']);
  });

  it('reveals, activates, resets, adds and starts quick votes in their places in both units', async () => {
    const s = await h.session();
    const ids = await h.stories(
      s,
      Array.from({ length: 12 }, (_, i) => `S${i + 1}`),
    );
    expect(
      (await h.client.patch(`/stories/${ids[8]}`, { body: { position: 2 }, ...as(s.owner_id) })).status,
    ).toBe(200);
    // The reveal of the current story makes the first pending one by place current: S9, moved up.
    const revealed = await post(s, `/stories/${ids[0]}/reveal`);
    expect(revealed.status).toBe(200);
    expect(revealed.body.next_story.id).toBe(ids[8]);
    expect(await h.currentStory(s.code)).toBe(ids[8]);
    // Activating one at the back: S9 goes back to pending.
    expect((await post(s, `/stories/${ids[11]}/activate`)).status).toBe(200);
    expect(await h.currentStory(s.code)).toBe(ids[11]);
    // Resetting the revealed S1 makes it current again; S12 waits.
    expect((await post(s, `/stories/${ids[0]}/reset`)).status).toBe(200);
    // A deletion renumbers the queue; an added story goes to its end.
    expect((await h.client.delete(`/stories/${ids[4]}`, as(s.owner_id))).status).toBe(200);
    const added = await post(s, `/sessions/${s.code}/stories`, { title: 'Added' });
    expect(added.body.story).toMatchObject({ position: 12, status: 'pending' });
    const quick = await post(s, `/sessions/${s.code}/quick-vote`, { title: 'Quick' });
    expect(quick.body.story).toMatchObject({ position: 13, status: 'voting' });
    expect(await h.currentStory(s.code)).toBe(quick.body.story.id);
    expect(await queue(s.code)).toEqual([
      '1 S1 pending',
      '2 S9 pending',
      '3 S2 pending',
      '4 S3 pending',
      '5 S4 pending',
      '6 S6 pending',
      '7 S7 pending',
      '8 S8 pending',
      '9 S10 pending',
      '10 S11 pending',
      '11 S12 pending',
      '12 Added pending',
      '13 Quick voting',
    ]);
  });
});
