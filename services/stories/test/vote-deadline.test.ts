/**
 * The vote-by deadline when the stories unit is not running at the moment it passes: votes after it
 * are refused by the sessions unit all the same, and the story is revealed as soon as the stories unit
 * is back, once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { pastMoment } from '@pp/testing';
import { as, startStories, until, type StoriesHarness } from './support/stories-harness.ts';

describe('the vote-by deadline while the stories unit is stopped', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories({ VOTE_BY_POLL_MS: '100' });
  });
  afterAll(() => h.stop());

  it('is handled when the unit starts again: the open story revealed once with the votes cast in time', async () => {
    const s = await h.session();
    const [first, second] = await h.stories(s, ['Before the deadline', 'Opened after it']);
    const [voter] = await h.castVotes(s, ['5', '8', '5']);
    // Ahead enough for the read model and the unit's stop to come first on a busy machine.
    const deadline = new Date(Date.now() + 4_000);
    const set = await h.sessionsApi.patch(`/sessions/${s.code}`, {
      body: { voteby_enabled: true, vote_by_at: deadline.toISOString() },
      ...as(s.owner_id),
    });
    expect(set.status).toBe(200);
    // The read model has the deadline before the unit stops (session.updated, as in any deployment).
    await until(async () => (await h.readModel(s.id))?.voteby_enabled === true);

    await h.stopStories();
    await pastMoment(deadline, 500);
    // The deadline is the sessions unit's to enforce, whether the stories unit runs or not.
    const late = await h.vote(s.code, voter!, '13');
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('voting_closed');
    expect(await h.currentStory(s.code)).toBe(first);
    expect(h.published.some((e) => e.type === 'story.revealed')).toBe(false);

    await h.startStories();
    const revealed = await h.event('story.revealed', (d) => d.story.id === first);
    expect(revealed.data.story.final_estimate).toBe('5');
    expect(revealed.data.story.votes.map((v) => v.value).sort()).toEqual(['5', '5', '8']);
    expect(await h.currentStory(s.code)).toBe(second);
    const listed = await h.client.get(`/sessions/${s.code}/stories`);
    expect(listed.body.stories.map((x: { status: string }) => x.status)).toEqual(['revealed', 'voting']);

    // A few more polls: no second reveal, and the story opened after the deadline stays open.
    await sleep(600);
    expect(h.published.filter((e) => e.type === 'story.revealed')).toHaveLength(1);
    await until(async () => (await h.currentStory(s.code)) === second);
  });
});
