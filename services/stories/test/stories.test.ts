import { randomUUID } from 'node:crypto';
import { as, startStories, type StoriesHarness } from './support/stories-harness.ts';

describe('stories: adding, reading, editing and deleting', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  const add = (code: string, owner: string, title: string, extra: Record<string, unknown> = {}) =>
    h.client.post(`/sessions/${code}/stories`, { body: { title, ...extra }, ...as(owner) });

  it('takes ten stories added at once, each in a place of its own, the first made current in both units', async () => {
    const s = await h.session();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => add(s.code, s.owner_id, `Story ${i + 1}`)),
    );
    expect(answers.map((a) => a.status)).toEqual(new Array(10).fill(201));
    const room = (await h.client.get(`/sessions/${s.code}/stories`)).body.stories as Array<{
      id: string;
      status: string;
      position: number;
    }>;
    expect(room.map((x) => x.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(room.map((x) => x.status)).toEqual(['voting', ...new Array(9).fill('pending')]);
    expect(await h.currentStory(s.code)).toBe(room[0]!.id);
  });

  it('activates stories asked for at once: each answers 200, and both units agree on the one made current last', async () => {
    const s = await h.session();
    const ids = await h.stories(s, ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']);
    const answers = await Promise.all(
      ids.map((id) => h.client.post(`/stories/${id}/activate`, as(s.owner_id))),
    );
    expect(answers.map((a) => a.status)).toEqual(new Array(10).fill(200));
    const room = (await h.client.get(`/sessions/${s.code}/stories`)).body.stories as Array<{
      id: string;
      status: string;
    }>;
    const voting = room.filter((x) => x.status === 'voting').map((x) => x.id);
    expect(voting).toHaveLength(1);
    expect(await h.currentStory(s.code)).toBe(voting[0]);
  });

  it('creates a story with 201 and every field; the first is voting, the next ones pending', async () => {
    const s = await h.session();
    const first = await add(s.code, s.owner_id, 'Login page', {
      description: 'As a user…',
      acceptance_criteria: 'Given\nWhen\nThen',
    });
    expect(first.status).toBe(201);
    expect(first.body.story).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      session_id: s.id,
      title: 'Login page',
      description: 'As a user…',
      acceptance_criteria: 'Given\nWhen\nThen',
      status: 'voting',
      position: 1,
      final_estimate: null,
      votes: null,
      revealed_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(first.body.data.story).toEqual(first.body.story);
    const second = await add(s.code.toLowerCase(), s.owner_id, 'Signup page');
    expect(second.body.story).toMatchObject({ status: 'pending', position: 2, description: '' });
    const created = await h.event('story.created', (d) => d.story.id === second.body.story.id);
    expect(created.data).toMatchObject({
      session_id: s.id,
      session_code: s.code,
      story: { status: 'pending' },
    });
  });

  it('answers 401 without a user, 403 to someone else, 404 for an unknown session and 422 for a bad title', async () => {
    const s = await h.session();
    expect((await h.client.post(`/sessions/${s.code}/stories`, { body: { title: 'x' } })).status).toBe(401);
    const stranger = await add(s.code, randomUUID(), 'x');
    expect(stranger.status).toBe(403);
    expect(stranger.body).toMatchObject({ success: false, error: { code: 'forbidden' } });
    expect((await add('ZZZZZZ', s.owner_id, 'x')).status).toBe(404);
    const invalid = await add(s.code, s.owner_id, '');
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors)).toEqual(['title']);
    expect((await add(s.code, s.owner_id, 'x'.repeat(201))).status).toBe(422);
    // Characters, as the documented maxLength counts them: 200 emoji are a title, 201 are not.
    const emoji = await add(s.code, s.owner_id, '😀'.repeat(200));
    expect(emoji.status).toBe(201);
    expect(emoji.body.story.title).toBe('😀'.repeat(200));
    expect((await add(s.code, s.owner_id, '😀'.repeat(201))).body.errors).toEqual({
      title: ['Too big: expected string to have <=200 characters'],
    });
    expect((await add(s.code, s.owner_id, 'ok', { description: 'x'.repeat(10_001) })).status).toBe(422);
  });

  it('shows the room the stories in queue order, with their details, without their votes before reveal', async () => {
    const s = await h.session();
    await add(s.code, s.owner_id, 'A', { description: 'About A', acceptance_criteria: 'Given A' });
    await add(s.code, s.owner_id, 'B');
    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(room.status).toBe(200);
    expect(
      room.body.stories.map((x: { title: string; status: string; votes: unknown }) => [
        x.title,
        x.status,
        x.votes,
      ]),
    ).toEqual([
      ['A', 'voting', null],
      ['B', 'pending', null],
    ]);
    expect(room.body.stories[0]).toMatchObject({ description: 'About A', acceptance_criteria: 'Given A' });
    expect((await h.client.get('/sessions/QQQQQQ/stories')).status).toBe(404);
  });

  it('lets only the owner read a story, and 404s an unknown one', async () => {
    const s = await h.session();
    const story = (await add(s.code, s.owner_id, 'A')).body.story;
    expect((await h.client.get(`/stories/${story.id}`, as(s.owner_id))).body.story).toEqual(story);
    expect((await h.client.get(`/stories/${story.id}`, as(randomUUID()))).status).toBe(403);
    expect((await h.client.get(`/stories/${randomUUID()}`, as(s.owner_id))).status).toBe(404);
    expect((await h.client.get('/stories/not-a-uuid', as(s.owner_id))).status).toBe(404);
    expect((await h.client.get(`/stories/${story.id}`)).status).toBe(401);
  });

  it('edits the text, refuses a status (or any field it does not take) in the body, and moves a story in the queue', async () => {
    const s = await h.session();
    const ids: string[] = [];
    for (const t of ['A', 'B', 'C']) ids.push((await add(s.code, s.owner_id, t)).body.story.id);
    const refused = await h.client.patch(`/stories/${ids[0]}`, {
      body: { title: 'A2', status: 'revealed' },
      ...as(s.owner_id),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors._body).toEqual([expect.stringContaining('status')]);
    expect((await h.client.get(`/stories/${ids[0]}`, as(s.owner_id))).body.story).toMatchObject({
      title: 'A',
      status: 'voting',
    });
    const edited = await h.client.patch(`/stories/${ids[0]}`, {
      body: { title: 'A2', acceptance_criteria: 'AC' },
      ...as(s.owner_id),
    });
    expect(edited.status).toBe(200);
    expect(edited.body.story).toMatchObject({ title: 'A2', acceptance_criteria: 'AC', status: 'voting' });
    const moved = await h.client.patch(`/stories/${ids[2]}`, { body: { position: 1 }, ...as(s.owner_id) });
    expect(moved.body.story.position).toBe(1);
    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(room.body.stories.map((x: { title: string; position: number }) => [x.title, x.position])).toEqual([
      ['C', 1],
      ['A2', 2],
      ['B', 3],
    ]);
    const updated = await h.event('story.updated', (d) => d.story.id === ids[2]);
    expect(updated.data.changed).toEqual(['position']);
    expect(
      (await h.client.patch(`/stories/${ids[0]}`, { body: { title: 'x' }, ...as(randomUUID()) })).status,
    ).toBe(403);
    expect(
      (await h.client.patch(`/stories/${ids[0]}`, { body: { position: 0 }, ...as(s.owner_id) })).status,
    ).toBe(422);
    // A position of another JSON type than the documented integer moves nothing.
    for (const position of ['2', true, [2], '']) {
      const odd = await h.client.patch(`/stories/${ids[0]}`, { body: { position }, ...as(s.owner_id) });
      expect([odd.status, Object.keys(odd.body.errors ?? {})]).toEqual([422, ['position']]);
    }
    const after = await h.client.get(`/sessions/${s.code}/stories`);
    expect(after.body.stories.map((x: { title: string }) => x.title)).toEqual(['C', 'A2', 'B']);
  });

  it('when the current story is deleted, the next pending one becomes current and the rest close up', async () => {
    const s = await h.session();
    const ids: string[] = [];
    for (const t of ['A', 'B', 'C']) ids.push((await add(s.code, s.owner_id, t)).body.story.id);
    expect((await h.client.delete(`/stories/${ids[0]}`, as(randomUUID()))).status).toBe(403);
    const deleted = await h.client.delete(`/stories/${ids[0]}`, as(s.owner_id));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      story: { id: ids[0] },
      next_story: { id: ids[1], status: 'voting' },
    });
    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(
      room.body.stories.map((x: { title: string; status: string; position: number }) => [
        x.title,
        x.status,
        x.position,
      ]),
    ).toEqual([
      ['B', 'voting', 1],
      ['C', 'pending', 2],
    ]);
    expect((await h.event('story.deleted', (d) => d.story.id === ids[0])).data.next_story_id).toBe(ids[1]);
    expect(
      (await h.event('story.activated', (d) => d.story.id === ids[1])).data.previous_story_id,
    ).toBeNull();
    expect((await h.client.get(`/stories/${ids[0]}`, as(s.owner_id))).status).toBe(404);
  });

  it('activating a story makes it current and sends the previous one back to pending', async () => {
    const s = await h.session();
    const ids: string[] = [];
    for (const t of ['A', 'B']) ids.push((await add(s.code, s.owner_id, t)).body.story.id);
    expect((await h.client.post(`/stories/${ids[1]}/activate`, as(randomUUID()))).status).toBe(403);
    const activated = await h.client.post(`/stories/${ids[1]}/activate`, as(s.owner_id));
    expect(activated.status).toBe(200);
    expect(activated.body.story).toMatchObject({ id: ids[1], status: 'voting' });
    expect((await h.client.get(`/stories/${ids[0]}`, as(s.owner_id))).body.story.status).toBe('pending');
    const event = await h.event('story.activated', (d) => d.story.id === ids[1]);
    expect(event.data.previous_story_id).toBe(ids[0]);
  });

  it('the session lookup shows a new title or place of the current story, and the next one after a delete, at once', async () => {
    const s = await h.session();
    const [a, b, c] = await h.stories(s, ['A', 'B', 'C']);
    await h.client.patch(`/stories/${a}`, { body: { title: 'A, clearer' }, ...as(s.owner_id) });
    expect(await h.lookupCurrent(s.code)).toEqual({
      id: a,
      title: 'A, clearer',
      status: 'voting',
      position: 1,
    });
    await h.client.patch(`/stories/${c}`, { body: { position: 1 }, ...as(s.owner_id) });
    expect(await h.lookupCurrent(s.code)).toMatchObject({ id: a, position: 2 });
    // The queue is C, A, B: deleting A makes the first pending one (C) current.
    await h.client.delete(`/stories/${a}`, as(s.owner_id));
    expect(await h.lookupCurrent(s.code)).toMatchObject({ id: c, title: 'C', position: 1 });
    await h.client.delete(`/stories/${c}`, as(s.owner_id));
    expect(await h.lookupCurrent(s.code)).toMatchObject({ id: b, position: 1 });
    await h.client.delete(`/stories/${b}`, as(s.owner_id));
    expect(await h.lookupCurrent(s.code)).toBeNull();
  });

  it('reordering while no story is current makes none current', async () => {
    const s = await h.session();
    const [a, b] = await h.stories(s, ['A', 'B']);
    await h.client.post(`/stories/${a}/reveal`, as(s.owner_id));
    await h.client.post(`/stories/${b}/reveal`, as(s.owner_id));
    const [c] = await h.stories(s, ['C']);
    expect(await h.currentStory(s.code)).toBe(c);
    await h.client.post(`/stories/${c}/reveal`, as(s.owner_id));
    expect((await h.client.patch(`/stories/${b}`, { body: { position: 1 }, ...as(s.owner_id) })).status).toBe(
      200,
    );
    expect(await h.currentStory(s.code)).toBeNull();
  });

  it('an archived session is read-only for its stories: 409 session_archived, at once, until it is unarchived', async () => {
    const s = await h.session();
    const [a, b] = await h.stories(s, ['A', 'B']);
    const archive = (status: string) =>
      h.sessionsApi.patch(`/sessions/${s.code}`, { body: { status }, ...as(s.owner_id) });
    expect((await archive('archived')).status).toBe(200);
    const attempts = [
      () => h.client.post(`/sessions/${s.code}/stories`, { body: { title: 'C' }, ...as(s.owner_id) }),
      () => h.client.patch(`/stories/${a}`, { body: { title: 'A2' }, ...as(s.owner_id) }),
      () => h.client.patch(`/stories/${b}`, { body: { position: 1 }, ...as(s.owner_id) }),
      () => h.client.post(`/stories/${b}/activate`, as(s.owner_id)),
      () => h.client.post(`/stories/${a}/reset`, as(s.owner_id)),
      () => h.client.post(`/stories/${a}/reveal`, as(s.owner_id)),
      () => h.client.delete(`/stories/${b}`, as(s.owner_id)),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect([res.status, res.body.error?.code]).toEqual([409, 'session_archived']);
    }
    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(room.body.stories.map((x: { title: string; status: string }) => [x.title, x.status])).toEqual([
      ['A', 'voting'],
      ['B', 'pending'],
    ]);
    expect((await archive('active')).status).toBe(200);
    expect((await attempts[0]!()).status).toBe(201);
  });
});
