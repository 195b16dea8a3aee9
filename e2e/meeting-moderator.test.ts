/**
 * The room's moderator runs the round with its participant token, through the gateway: once the owner
 * hands the role over, the moderator reveals, votes again, opens the next story and runs the countdown;
 * anyone else in the room, a moderator replaced, a token of another room and a request naming no one
 * are refused, and nothing changes for them.
 */
import { startPlatform, type Platform } from './support/platform.ts';

describe('a handed-over moderator runs the round', () => {
  let p: Platform;
  let owner: string;
  beforeAll(async () => {
    p = await startPlatform();
    owner = await p.signUp('Olga');
  });
  afterAll(() => p.stop());

  const seat = async (code: string, name: string) => {
    const joined = (await p.client.post(`/sessions/${code}/join`, { body: { name } })).body;
    return { id: joined.participant.id as number, token: joined.participant.token as string };
  };
  /** A room with two stories (the first open) and two people in it. */
  const room = async () => {
    const code = (await p.client.post('/sessions', { body: { name: 'Handed over' }, token: owner })).body
      .session.code as string;
    const stories: string[] = [];
    for (const title of ['First', 'Second'])
      stories.push(
        (await p.client.post(`/sessions/${code}/stories`, { body: { title }, token: owner })).body.story.id,
      );
    return { code, stories, mia: await seat(code, 'Mia'), vic: await seat(code, 'Vic') };
  };
  const as = (seatToken: string) => ({ headers: { 'x-participant-token': seatToken } });
  const makeModerator = (code: string, id: number) =>
    p.client.patch(`/sessions/${code}/participants/${id}`, { body: { role: 'moderator' }, token: owner });
  const current = async (code: string) =>
    (await p.client.get(`/sessions/${code}`)).body.session.current_story?.id;

  it('reveals, votes again, opens the next story and runs the countdown once the owner hands the role over', async () => {
    const { code, stories, mia, vic } = await room();
    const vote = (value: string) =>
      p.client.post(`/sessions/${code}/vote`, {
        body: { participant_id: vic.id, vote: value },
        ...as(vic.token),
      });
    expect((await vote('5')).status).toBe(200);

    // A participant is not the moderator yet.
    const early = await p.client.post(`/stories/${stories[0]}/reveal`, as(mia.token));
    expect([early.status, early.body.error?.code]).toEqual([403, 'forbidden']);
    expect(await current(code)).toBe(stories[0]);

    expect((await makeModerator(code, mia.id)).status).toBe(200);
    const started = await p.client.post(`/sessions/${code}/countdown`, {
      body: { seconds: 60 },
      ...as(mia.token),
    });
    expect([started.status, started.body.countdown?.story_id]).toEqual([200, stories[0]]);
    const stopped = await p.client.delete(`/sessions/${code}/countdown`, as(mia.token));
    expect([stopped.status, stopped.body.stopped]).toEqual([200, true]);

    const revealed = await p.client.post(`/stories/${stories[0]}/reveal`, as(mia.token));
    expect(revealed.status).toBe(200);
    expect(revealed.body.story).toMatchObject({ id: stories[0], status: 'revealed', final_estimate: '5' });
    expect(revealed.body.next_story.id).toBe(stories[1]);
    expect(await current(code)).toBe(stories[1]);

    const revote = await p.client.post(`/stories/${stories[0]}/reset`, as(mia.token));
    expect([revote.status, revote.body.story.status, revote.body.story.final_estimate]).toEqual([
      200,
      'voting',
      null,
    ]);
    const activated = await p.client.post(`/stories/${stories[1]}/activate`, as(mia.token));
    expect([activated.status, activated.body.story.status]).toEqual([200, 'voting']);
    expect(await current(code)).toBe(stories[1]);
  });

  it('refuses everyone else: another participant, a moderator replaced, another room, no one at all', async () => {
    const { code, stories, mia, vic } = await room();
    const other = await room();
    expect((await makeModerator(code, mia.id)).status).toBe(200);
    expect((await makeModerator(other.code, other.mia.id)).status).toBe(200);

    const refused = async (path: `/stories/${string}`, options: object, status: number) => {
      const answer = await p.client.post(path as `/stories/${string}/reveal`, options);
      expect([path, answer.status]).toEqual([path, status]);
    };
    // A voter is not the moderator; the other room's moderator runs only its own room.
    await refused(`/stories/${stories[0]}/reveal`, as(vic.token), 403);
    await refused(`/stories/${stories[0]}/activate`, as(other.mia.token), 403);
    await refused(`/stories/${stories[0]}/reset`, as('ppt_not-a-token'), 403);
    // Naming no one is a 401, whatever the path; an unknown story is a 404 first.
    await refused(`/stories/${stories[0]}/reveal`, {}, 401);
    await refused('/stories/00000000-0000-4000-8000-000000000000/reveal', as(mia.token), 404);
    const countdown = await p.client.post(`/sessions/${code}/countdown`, {
      body: { seconds: 30 },
      ...as(vic.token),
    });
    expect([countdown.status, countdown.body.error?.code]).toEqual([403, 'forbidden']);
    expect((await p.client.post(`/sessions/${code}/countdown`, { body: { seconds: 30 } })).status).toBe(401);

    // Handing the role to Vic takes it from Mia.
    expect((await makeModerator(code, vic.id)).status).toBe(200);
    await refused(`/stories/${stories[0]}/reveal`, as(mia.token), 403);
    expect(await current(code)).toBe(stories[0]);
    expect((await p.client.post(`/stories/${stories[0]}/reveal`, as(vic.token))).status).toBe(200);

    // The participant token stays a seat's proof, not the owner's: editing a story is still the owner's.
    const edit = await p.client.patch(`/stories/${stories[1]}`, {
      body: { title: 'Mine now' },
      ...as(vic.token),
    });
    expect(edit.status).toBe(401);
  });
});
