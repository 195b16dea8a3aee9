/**
 * The room runs the meeting: a round started without a prepared story (a quick vote) and the story's
 * details in the room's view, through the gateway.
 */
import { startPlatform, type Platform } from './support/platform.ts';

describe('quick vote and story details', () => {
  let p: Platform;
  let owner: string;
  beforeAll(async () => {
    p = await startPlatform();
    owner = await p.signUp('Quinn');
  });
  afterAll(() => p.stop());

  const createSession = async () =>
    (await p.client.post('/sessions', { body: { name: 'Quick' }, token: owner })).body.session as {
      code: string;
    };

  it('opens a dated round in one request, which can be voted, revealed and renamed', async () => {
    const { code } = await createSession();
    const prepared = await p.client.post(`/sessions/${code}/stories`, {
      body: { title: 'Prepared' },
      token: owner,
    });
    const started = await p.client.post(`/sessions/${code}/quick-vote`, { token: owner });
    expect(started.status).toBe(201);
    const story = started.body.story;
    expect(story).toMatchObject({ status: 'voting', position: 2 });
    expect(story.title).toMatch(/^Quick vote \d\d:\d\d$/);

    const lookup = await p.client.get(`/sessions/${code}`);
    expect(lookup.body.session.current_story.id).toBe(story.id);
    const voter = (await p.client.post(`/sessions/${code}/join`, { body: { name: 'Val' } })).body.participant;
    const vote = await p.client.post(`/sessions/${code}/vote`, {
      body: { participant_id: voter.id, vote: '5' },
    });
    expect([vote.status, vote.body.vote.story_id]).toEqual([200, story.id]);
    const revealed = await p.client.post(`/stories/${story.id}/reveal`, { token: owner });
    expect([revealed.status, revealed.body.story.final_estimate]).toEqual([200, '5']);
    // The prepared story, sent back to pending by the quick vote, is current again.
    expect(revealed.body.next_story.id).toBe(prepared.body.story.id);
    const renamed = await p.client.patch(`/stories/${story.id}`, {
      body: { title: 'Login bug' },
      token: owner,
    });
    expect([renamed.status, renamed.body.story.title]).toEqual([200, 'Login bug']);
  });

  it('takes a title, and refuses anyone but the owner', async () => {
    const { code } = await createSession();
    const named = await p.client.post(`/sessions/${code}/quick-vote`, {
      body: { title: 'Hotfix' },
      token: owner,
    });
    expect([named.status, named.body.story.title, named.body.story.status]).toEqual([
      201,
      'Hotfix',
      'voting',
    ]);
    const other = await p.signUp('Mallory');
    const refused = await p.client.post(`/sessions/${code}/quick-vote`, { token: other });
    expect(refused.status).toBe(403);
    const anonymous = await p.client.post(`/sessions/${code}/quick-vote`, {});
    expect(anonymous.status).toBe(401);
    const empty = await p.client.post(`/sessions/${code}/quick-vote`, { body: { title: '' }, token: owner });
    expect(empty.status).toBe(422);
  });

  it("shows each story's description and acceptance criteria in the room's view and the room read", async () => {
    const { code } = await createSession();
    const body = {
      title: 'Search',
      description: 'Find by name',
      acceptance_criteria: 'Given a name\nThen a hit',
    };
    const added = await p.client.post(`/sessions/${code}/stories`, { body, token: owner });
    expect(added.status).toBe(201);
    const listed = await p.client.get(`/sessions/${code}/stories`);
    expect(listed.body.stories[0]).toMatchObject(body);
    const room = await p.client.get(`/sessions/${code}/room`);
    expect(room.body.stories[0]).toMatchObject(body);
  });
});
