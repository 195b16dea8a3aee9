/**
 * Organising sessions through the gateway, with the real units behind it: folders, the workspace's
 * defaults, and a session made from a template, whose stories the stories unit adds before the 201
 * comes back. When the stories unit cannot be reached, or its answer is lost, no session is left.
 */
import { until } from '@pp/testing';
import { watchEvents } from './support/events.ts';
import { bearer, startPlatform, type Platform } from './support/platform.ts';

describe('organising sessions through the gateway', () => {
  let p: Platform;
  let events: Awaited<ReturnType<typeof watchEvents>>;
  let owner: string;
  beforeAll(async () => {
    p = await startPlatform({ sessionsEnv: { STORIES_TIMEOUT_MS: '1000' } });
    events = await watchEvents(p.prefix);
    owner = await p.signUp('Olga');
  });
  afterAll(async () => {
    await events.close();
    await p.stop();
  });

  const as = (token: string) => ({ token });
  const STORIES = [
    { title: 'Sign up', description: 'With an email address', acceptance_criteria: 'Given a new visitor' },
    { title: 'Sign in' },
    { title: 'Reset the password', description: 'By email' },
  ];
  const newTemplate = async (token: string, body: Record<string, unknown>) => {
    const res = await p.client.post('/workspace/templates', { body, ...as(token) });
    expect(res.status).toBe(201);
    return res.body.template as { id: number };
  };
  const fromTemplate = (token: string, id: number, body: unknown = {}) =>
    p.client.post(`/workspace/templates/${id}/sessions`, { body, ...as(token) });

  it('makes a session with the template’s stories in order, the first one open for the very next vote', async () => {
    await p.client.patch('/workspace', { body: { defaults: { record_vote_names: true } }, ...as(owner) });
    const folder = (
      await p.client.post('/folders', { body: { name: 'Onboarding', color: '#22aa88' }, ...as(owner) })
    ).body.folder;
    const template = await newTemplate(owner, {
      name: 'Accounts',
      settings: { voting_system: 'tshirt' },
      stories: STORIES,
    });
    for (let run = 0; run < 10; run++) {
      const res = await fromTemplate(owner, template.id, { name: `Accounts ${run}`, folder_id: folder.id });
      expect(res.status).toBe(201);
      const { session, stories } = res.body;
      expect(session).toMatchObject({
        name: `Accounts ${run}`,
        folder_id: folder.id,
        voting_system: 'tshirt',
        record_vote_names: true,
        current_story: { id: stories[0].id, title: 'Sign up', status: 'voting', position: 1 },
      });
      expect(
        stories.map((s: { title: string; status: string; position: number }) => [s.title, s.status]),
      ).toEqual([
        ['Sign up', 'voting'],
        ['Sign in', 'pending'],
        ['Reset the password', 'pending'],
      ]);
      // What the answer says, the next requests see: the lookup, the room's stories, a vote.
      const lookup = await p.client.get(`/sessions/${session.code}`);
      expect(lookup.body.session.current_story.id).toBe(stories[0].id);
      const listed = await p.client.get(`/sessions/${session.code}/stories`);
      expect(listed.body.stories.map((s: { id: string }) => s.id)).toEqual(
        stories.map((s: { id: string }) => s.id),
      );
      const voter = (await p.client.post(`/sessions/${session.code}/join`, { body: { name: 'Vic' } })).body
        .participant.id;
      const vote = await p.client.post(`/sessions/${session.code}/vote`, {
        body: { participant_id: voter, vote: 'M' },
      });
      expect(vote.status).toBe(200);
      expect(vote.body.vote.story_id).toBe(stories[0].id);
    }
    const last = (await p.client.get(`/sessions?folder_id=${folder.id}&per_page=1`, as(owner))).body
      .sessions[0];
    const story = await p.client.get(`/stories/${last.current_story.id}`, as(owner));
    expect(story.body.story).toMatchObject({
      title: 'Sign up',
      description: 'With an email address',
      acceptance_criteria: 'Given a new visitor',
    });
    expect((await p.client.get(`/sessions?folder_id=${folder.id}`, as(owner))).body.meta.total).toBe(10);
  });

  it('cannot reach the stories unit: 503, no session left, and a retry once it is back makes one', async () => {
    const token = await p.signUp('Cut');
    const template = await newTemplate(token, { name: 'Cut off', stories: STORIES });
    p.toStories.cut();
    try {
      const refused = await fromTemplate(token, template.id);
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('stories_unavailable');
      expect((await p.client.get('/sessions', as(token))).body.meta.total).toBe(0);
    } finally {
      p.toStories.restore();
    }
    // The breaker of the sessions unit's client may be open for a few seconds after the failures.
    const made = await until(async () => {
      const res = await fromTemplate(token, template.id);
      return res.status === 201 ? res : undefined;
    }, 15_000);
    expect(made.body.stories).toHaveLength(3);
    expect((await p.client.get('/sessions', as(token))).body.meta.total).toBe(1);
  });

  it('loses the stories unit’s answer: the session is discarded in both units, its stories too', async () => {
    const token = await p.signUp('Muted');
    const template = await newTemplate(token, { name: 'Muted', stories: STORIES });
    p.toStories.mute();
    let refused;
    try {
      refused = await fromTemplate(token, template.id);
    } finally {
      p.toStories.restore();
    }
    expect(refused.status).toBe(503);
    expect((await p.client.get('/sessions', as(token))).body.meta.total).toBe(0);
    const discarded = await until(async () =>
      events
        .of('session.discarded')
        .find((e) => events.of('story.created').some((s) => s.data.session_id === e.data.session_id)),
    );
    const code = discarded.data.session_code as string;
    expect(events.of('session.created').some((e) => e.data.session.id === discarded.data.session_id)).toBe(
      false,
    );
    expect((await p.client.get(`/sessions/${code}`)).status).toBe(404);
    // The stories unit added the stories (the answer was lost on the way back), then dropped them.
    await until(async () => (await p.client.get(`/sessions/${code}/stories`)).status === 404);
  });

  it('refuses another owner’s template and folder with 403, and leaves nothing behind', async () => {
    const mallory = await p.signUp('Mallory');
    const template = await newTemplate(owner, { name: 'Olga only', stories: STORIES });
    expect((await fromTemplate(mallory, template.id)).status).toBe(403);
    const folder = (
      await p.client.post('/folders', { body: { name: 'Olga', color: '#000000' }, ...as(owner) })
    ).body.folder;
    const own = await newTemplate(mallory, { name: 'Mine', stories: STORIES });
    const res = await fromTemplate(mallory, own.id, { folder_id: folder.id });
    expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
    expect((await p.client.get('/sessions', as(mallory))).body.meta.total).toBe(0);
    expect((await p.client.get(`/workspace/templates/${template.id}`, as(mallory))).status).toBe(403);
  });

  it('reads one folder by its id with the typed client: the owner’s as it is now, nobody else’s', async () => {
    const mallory = await p.signUp('Mallory again');
    const made = await p.client.post('/folders', {
      body: { name: 'Roadmap', color: '#3366FF' },
      ...as(owner),
    });
    const id = String(made.body.folder.id);
    await p.client.patch(`/folders/${id}`, { body: { name: 'Roadmap 2027' }, ...as(owner) });
    const byId = { params: { path: { id } } };
    const read = await p.api.GET('/folders/{id}', { ...byId, ...bearer(owner) });
    expect(read.response.status).toBe(200);
    expect(read.data!.folder).toMatchObject({
      id: made.body.folder.id,
      name: 'Roadmap 2027',
      color: '#3366ff',
    });
    const theirs = await p.api.GET('/folders/{id}', { ...byId, ...bearer(mallory) });
    expect([theirs.response.status, theirs.error?.error.code]).toEqual([403, 'forbidden']);
    expect((await p.api.GET('/folders/{id}', byId)).response.status).toBe(401);
    const unknown = await p.api.GET('/folders/{id}', {
      params: { path: { id: '2147483647' } },
      ...bearer(owner),
    });
    expect([unknown.response.status, unknown.error?.error.code]).toEqual([404, 'folder_not_found']);
    await p.client.delete(`/folders/${id}`, as(owner));
    expect((await p.api.GET('/folders/{id}', { ...byId, ...bearer(owner) })).response.status).toBe(404);
  });
});
