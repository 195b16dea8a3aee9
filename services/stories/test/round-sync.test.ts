/**
 * The two units agree on the round when the connection between them fails: a change that cannot
 * reach the sessions unit answers 503 and changes nothing, and one whose answer is lost on the way
 * (the sessions unit changed the round, this unit could not know) is stated again within seconds.
 */
import { as, startStories, until, type StoriesHarness, type TestSession } from './support/stories-harness.ts';

describe('the round when the units cannot talk', () => {
  // A service each: the failures of one test must not leave the next one a circuit breaker open.
  let h: StoriesHarness;
  beforeEach(async () => {
    h = await startStories({
      SESSIONS_TIMEOUT_MS: '200',
      ROUND_SYNC_INTERVAL_MS: '100',
      ROUND_SYNC_GRACE_MS: '2000',
    });
  });
  afterEach(() => h.stop());

  const add = (s: TestSession, title: string) =>
    h.client.post(`/sessions/${s.code}/stories`, { body: { title }, ...as(s.owner_id) });
  const roomView = async (s: TestSession) =>
    (await h.client.get(`/sessions/${s.code}/stories`)).body.stories.map(
      (x: { id: string; status: string }) => [x.id, x.status],
    );

  it('adding a story while the sessions unit cannot be reached: 503, nothing added anywhere, and a retry adds it', async () => {
    const s = await h.session();
    h.betweenUnits.cut();
    const refused = await add(s, 'First');
    expect(refused.status).toBe(503);
    expect(await roomView(s)).toEqual([]);
    expect(await h.currentStory(s.code)).toBeNull();

    h.betweenUnits.restore();
    const retried = await add(s, 'First');
    expect(retried.status).toBe(201);
    expect(await h.currentStory(s.code)).toBe(retried.body.story.id);
    expect(await roomView(s)).toEqual([[retried.body.story.id, 'voting']]);
  });

  it('activating a story while the sessions unit cannot be reached: 503, the old story stays current in both, and a retry moves it', async () => {
    const s = await h.session();
    const [a, b] = await h.stories(s, ['A', 'B']);
    h.betweenUnits.cut();
    expect((await h.client.post(`/stories/${b}/activate`, as(s.owner_id))).status).toBe(503);
    expect(await roomView(s)).toEqual([
      [a, 'voting'],
      [b, 'pending'],
    ]);
    expect(await h.currentStory(s.code)).toBe(a);

    h.betweenUnits.restore();
    expect((await h.client.post(`/stories/${b}/activate`, as(s.owner_id))).status).toBe(200);
    expect(await h.currentStory(s.code)).toBe(b);
  });

  it('a change that leaves the round as it was commits here alone: a waiting story added and edited while the sessions unit cannot be reached', async () => {
    const s = await h.session();
    const [a] = await h.stories(s, ['A']);
    const told = () => h.sessionsCalls(new RegExp(`PUT /internal/sessions/${s.id}/round`));
    const before = told();
    h.betweenUnits.cut();
    const added = await add(s, 'B');
    expect([added.status, added.body.story.status]).toEqual([201, 'pending']);
    const b = added.body.story.id as string;
    const edited = await h.client.patch(`/stories/${b}`, {
      body: { title: 'B2', description: 'Waiting' },
      ...as(s.owner_id),
    });
    expect([edited.status, edited.body.story.title]).toEqual([200, 'B2']);
    expect(await roomView(s)).toEqual([
      [a, 'voting'],
      [b, 'pending'],
    ]);
    expect(told()).toBe(before);
    // What changes the round still needs the sessions unit: refused, nothing changed.
    expect((await h.client.post(`/stories/${b}/activate`, as(s.owner_id))).status).toBe(503);
    expect((await h.client.patch(`/stories/${a}`, { body: { title: 'A2' }, ...as(s.owner_id) })).status).toBe(
      503,
    );
    h.betweenUnits.restore();
    expect(await h.currentStory(s.code)).toBe(a);
    expect(await h.lookupCurrent(s.code)).toEqual({ id: a, title: 'A', status: 'voting', position: 1 });
  });

  it('from an archive until the session is seen unarchived, every change asks the sessions unit', async () => {
    const s = await h.session();
    await h.stories(s, ['A']);
    const status = (value: string) =>
      h.sessionsApi.patch(`/sessions/${s.code}`, { body: { status: value }, ...as(s.owner_id) });
    expect((await status('archived')).status).toBe(200);
    expect((await status('active')).status).toBe(200);
    await until(async () => (await h.readModel(s.id))?.archiving_since === null);
    h.betweenUnits.cut();
    expect((await add(s, 'B')).status).toBe(201);
    h.betweenUnits.restore();
    // Asked again: held until the unarchive after it is seen, whatever the read model says meanwhile.
    expect((await status('archived')).status).toBe(200);
    expect((await h.readModel(s.id))?.archiving_since).not.toBeNull();
    h.betweenUnits.cut();
    expect((await add(s, 'C')).status).toBe(503);
  });

  it('a story added as its database goes: 503, no vote is taken on the round the sessions unit opened, and the round sync takes the round away', async () => {
    const s = await h.session();
    const voter = await h.join(s.code, 'Vera');
    const votesOn = async (storyId: string) =>
      (await h.sessionsRuntime.db
        .fork()
        .getConnection()
        .execute('select count(*)::int as n from votes where story_id = ?', [storyId])) as Array<{
        n: number;
      }>;
    // The sessions unit applies the round command; then, before the commit here, the database goes.
    h.afterNextRound(() => h.storiesDatabase.cut());
    const added = await add(s, 'First');
    expect(added.status).toBe(503);
    const phantom = await h.currentStory(s.code);
    expect(phantom).not.toBeNull();

    // A vote on it while the stories unit cannot tell whether it committed the change, and once it
    // can (it did not), or once the round sync has already taken the round away: never taken.
    const whileDown = await h.vote(s.code, voter, '5');
    expect(whileDown.status).toBe(503);
    h.storiesDatabase.restore();
    const afterwards = await h.vote(s.code, voter, '5');
    expect([
      [503, 'round_not_confirmed'],
      [409, 'no_open_story'],
    ]).toContainEqual([afterwards.status, afterwards.body.error.code]);
    expect(await votesOn(phantom!)).toEqual([{ n: 0 }]);

    // The round sync states the round as this unit has it: no story; the change left no trace.
    await until(async () => (await h.currentStory(s.code)) === null, 15_000);
    const none = await h.vote(s.code, voter, '5');
    expect([none.status, none.body.error.code]).toEqual([409, 'no_open_story']);
    expect(await roomView(s)).toEqual([]);
    expect(await votesOn(phantom!)).toEqual([{ n: 0 }]);

    // Added again, the story is current in both, and votes on it count.
    const retried = await add(s, 'First');
    expect(retried.status).toBe(201);
    const counted = await h.vote(s.code, voter, '8');
    expect([counted.status, counted.body.vote.story_id]).toEqual([200, retried.body.story.id]);
  });

  it('a change whose answer is lost: the sessions unit has moved on, and within seconds both agree again', async () => {
    const s = await h.session();
    h.betweenUnits.mute();
    const lost = await add(s, 'First');
    expect(lost.status).toBe(503);
    // The sessions unit took the round command (its answer never came back): a story it alone knows.
    expect(await h.currentStory(s.code)).not.toBeNull();
    expect(await roomView(s)).toEqual([]);

    h.betweenUnits.restore();
    // Within the round sync's grace, plus the breaker's pause after the failures (a few seconds).
    await until(async () => (await h.currentStory(s.code)) === null, 15_000);
    expect(await roomView(s)).toEqual([]);
    const retried = await add(s, 'First');
    expect(retried.status).toBe(201);
    expect(await h.currentStory(s.code)).toBe(retried.body.story.id);
  });
});
