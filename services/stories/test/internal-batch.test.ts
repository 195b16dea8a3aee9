import { randomUUID } from 'node:crypto';
import { IDENTITY_HEADER, signIdentity } from '@pp/http';
import { as, KEY, startStories, type StoriesHarness } from './support/stories-harness.ts';

const asService = {
  headers: {
    [IDENTITY_HEADER]: signIdentity(KEY, {
      sub: 'integrations',
      kind: 'service',
      iss: 'integrations',
      aud: 'stories',
    }),
  },
};

describe('adding a batch of stories for another unit', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  const batch = (sessionId: string, stories: unknown[], headers = asService) =>
    h.client.post(`/internal/sessions/${sessionId}/stories`, { body: { stories }, ...headers });

  it('adds the stories in order after the existing ones, the first current when none is, in one change', async () => {
    const s = await h.session();
    const [a, b] = [randomUUID(), randomUUID()];
    const res = await batch(s.id, [
      { id: a, title: 'Import A', description: 'from a tracker' },
      { id: b, title: 'Import B', acceptance_criteria: 'Given' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.stories).toEqual([
      { id: a, title: 'Import A', status: 'voting', position: 1 },
      { id: b, title: 'Import B', status: 'pending', position: 2 },
    ]);
    expect(await h.currentStory(s.code)).toBe(a);
    expect(h.sessionsCalls(new RegExp(`PUT /internal/sessions/${s.id}/round`))).toBe(1);
    const listed = await h.client.get(`/sessions/${s.code}/stories`);
    expect(listed.body.stories.map((x: { title: string }) => x.title)).toEqual(['Import A', 'Import B']);
  });

  it('adds nothing twice when the same batch comes again, and answers the same stories', async () => {
    const s = await h.session();
    await h.stories(s, ['Typed by hand']);
    const stories = [{ id: randomUUID(), title: 'Once' }];
    const first = await batch(s.id, stories);
    const again = await batch(s.id, [...stories, { id: randomUUID(), title: 'New one' }]);
    expect(again.status).toBe(200);
    expect(again.body.stories[0]).toEqual(first.body.stories[0]);
    expect(again.body.stories[1]).toMatchObject({ title: 'New one', position: 3, status: 'pending' });
    const listed = await h.client.get(`/sessions/${s.code}/stories`);
    expect(listed.body.stories).toHaveLength(3);
  });

  it('refuses a user identity (403), an unknown session (404) and unknown or oversized fields (422)', async () => {
    const s = await h.session();
    expect((await batch(s.id, [{ id: randomUUID(), title: 'x' }], as(s.owner_id))).status).toBe(403);
    expect((await batch(randomUUID(), [{ id: randomUUID(), title: 'x' }])).status).toBe(404);
    expect((await batch(s.id, [{ id: randomUUID(), title: 'x', status: 'revealed' }])).status).toBe(422);
    expect((await batch(s.id, [{ id: randomUUID(), title: 'x'.repeat(201) }])).status).toBe(422);
    expect((await batch(s.id, [])).status).toBe(422);
  });
});
