/**
 * The owner runs the round with a countdown, through the gateway: everyone sees it (the lookup, the
 * room read, the live room), and at zero the round is revealed or closed to votes; it ends with its
 * round. The stories unit looks for rounds due every 100 ms here.
 */
import { until } from '@pp/testing';
import { startPlatform, type Platform } from './support/platform.ts';

describe('round countdown', () => {
  let p: Platform;
  let owner: string;
  beforeAll(async () => {
    p = await startPlatform({ storiesEnv: { VOTE_BY_POLL_MS: '100' } });
    owner = await p.signUp('Cora');
  });
  afterAll(() => p.stop());

  /** A session with two stories, the first open, and one voter who voted on it. */
  const room = async () => {
    const code = (await p.client.post('/sessions', { body: { name: 'Timed' }, token: owner })).body.session
      .code as string;
    const stories: string[] = [];
    for (const title of ['First', 'Second'])
      stories.push(
        (await p.client.post(`/sessions/${code}/stories`, { body: { title }, token: owner })).body.story.id,
      );
    const voter = (await p.client.post(`/sessions/${code}/join`, { body: { name: 'Vic' } })).body.participant
      .id as number;
    const vote = (value: string) =>
      p.client.post(`/sessions/${code}/vote`, { body: { participant_id: voter, vote: value } });
    expect((await vote('3')).status).toBe(200);
    return { code, stories, vote };
  };
  const countdownOf = async (code: string) =>
    (await p.client.get(`/sessions/${code}`)).body.session.countdown;
  const start = (code: string, body: object, token = owner) =>
    p.client.post(`/sessions/${code}/countdown`, { body, token });

  it('is seen on the live room, in the lookup and the room read, and reveals the round at zero', async () => {
    const { code, stories } = await room();
    const stream = await p.room(code);
    const started = await start(code, { seconds: 5 });
    expect(started.status).toBe(200);
    const { countdown } = started.body;
    expect(countdown).toMatchObject({ story_id: stories[0], seconds: 5, at_zero: 'reveal' });
    const endsAt = Date.parse(countdown.ends_at);
    expect(endsAt - Date.now()).toBeGreaterThan(3_000);

    expect(await countdownOf(code)).toEqual(countdown);
    expect((await p.client.get(`/sessions/${code}/room`)).body.session.countdown).toEqual(countdown);
    const announced = await stream.waitFor((e) => e.event === 'countdown.started');
    expect(announced.data.countdown).toEqual(countdown);

    const revealed = await stream.waitFor((e) => e.event === 'story.revealed', 10_000);
    expect(revealed.data.story).toMatchObject({ id: stories[0], final_estimate: '3' });
    expect(Date.parse(revealed.data.occurred_at)).toBeGreaterThanOrEqual(endsAt);
    const lookup = (await p.client.get(`/sessions/${code}`)).body.session;
    expect([lookup.current_story.id, lookup.countdown]).toEqual([stories[1], null]);
    await stream.close();
  });

  it('closes the round to votes at zero when the owner chose so, and the owner still reveals it', async () => {
    const { code, stories, vote } = await room();
    const started = await start(code, { seconds: 5, at_zero: 'close' });
    expect([started.status, started.body.countdown.at_zero]).toEqual([200, 'close']);
    expect((await vote('5')).status).toBe(200);
    await until(async () => Date.now() > Date.parse(started.body.countdown.ends_at), 10_000);
    const late = await vote('8');
    expect([late.status, late.body.error?.code]).toEqual([409, 'voting_closed']);
    // Closed, not revealed: the round waits for the owner.
    const lookup = (await p.client.get(`/sessions/${code}`)).body.session;
    expect([lookup.current_story.id, lookup.countdown.at_zero]).toEqual([stories[0], 'close']);
    const revealed = await p.client.post(`/stories/${stories[0]}/reveal`, { token: owner });
    expect([revealed.status, revealed.body.story.final_estimate]).toEqual([200, '5']);
    expect(await countdownOf(code)).toBeNull();
  });

  it('ends with its round: a reveal, a re-vote, another story made current; the owner can stop it', async () => {
    const { code, stories } = await room();
    const stream = await p.room(code);
    expect((await start(code, { seconds: 60 })).status).toBe(200);
    await p.client.post(`/stories/${stories[0]}/reset`, { token: owner });
    expect(await countdownOf(code)).toBeNull();

    expect((await start(code, { seconds: 60 })).status).toBe(200);
    await p.client.post(`/stories/${stories[1]}/activate`, { token: owner });
    expect(await countdownOf(code)).toBeNull();
    // Made current again, the first story starts without one.
    await p.client.post(`/stories/${stories[0]}/activate`, { token: owner });
    expect(await countdownOf(code)).toBeNull();

    expect((await start(code, { seconds: 60 })).status).toBe(200);
    const stopped = await p.client.delete(`/sessions/${code}/countdown`, { token: owner });
    expect([stopped.status, stopped.body.stopped]).toEqual([200, true]);
    expect(await countdownOf(code)).toBeNull();
    const ended = await stream.waitFor((e) => e.event === 'countdown.ended');
    expect(ended.data.story_id).toBe(stories[0]);

    expect((await start(code, { seconds: 60 })).status).toBe(200);
    const revealed = await p.client.post(`/stories/${stories[0]}/reveal`, { token: owner });
    expect(revealed.status).toBe(200);
    expect(await countdownOf(code)).toBeNull();

    // The next story's countdown ends with the story's deletion.
    expect((await start(code, { seconds: 60 })).body.countdown.story_id).toBe(stories[1]);
    expect((await p.client.delete(`/stories/${stories[1]}`, { token: owner })).status).toBe(200);
    expect(await countdownOf(code)).toBeNull();
    await stream.close();
  });

  it('is refused without an open round, to anyone but the owner, and out of 5..3600 seconds', async () => {
    const { code, stories } = await room();
    for (const body of [
      { seconds: 4 },
      { seconds: 3601 },
      { seconds: 2.5 },
      { seconds: 30, at_zero: 'skip' },
      {},
    ])
      expect((await start(code, body)).status).toBe(422);
    expect((await start(code, { seconds: 30 }, await p.signUp('Mal'))).status).toBe(403);
    expect((await p.client.post(`/sessions/${code}/countdown`, { body: { seconds: 30 } })).status).toBe(401);
    for (const id of stories) await p.client.post(`/stories/${id}/reveal`, { token: owner });
    const none = await start(code, { seconds: 30 });
    expect([none.status, none.body.error?.code]).toEqual([409, 'no_open_story']);
  });
});
