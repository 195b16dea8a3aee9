import type { SessionSnapshot } from '@pp/contracts';
import { as, startStories, type StoriesHarness } from './support/stories-harness.ts';

describe('automatic reveals: auto_reveal and the vote-by deadline', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  async function sessionWithStories(overrides: Partial<SessionSnapshot>, titles = ['A', 'B']) {
    const s = await h.session(overrides);
    const ids: string[] = [];
    for (const title of titles) {
      ids.push(
        (await h.client.post(`/sessions/${s.code}/stories`, { body: { title }, ...as(s.owner_id) })).body
          .story.id,
      );
    }
    return { s, ids };
  }
  const statusOf = async (owner: string, id: string) =>
    (await h.client.get(`/stories/${id}`, as(owner))).body.story.status as string;
  const voteCast = (s: SessionSnapshot, storyId: string, votes: number, total: number) => {
    const p = h.fake.participant(`P${votes}`);
    h.fake.vote(storyId, p, '5');
    return h.publish('vote.cast', {
      session_id: s.id,
      session_code: s.code,
      story_id: storyId,
      participant: { id: p.id, name: p.name },
      stats: { votes_cast: votes, total_participants: total, all_voted: votes === total },
    });
  };

  it('with auto_reveal on, the story is revealed as soon as everyone has voted', async () => {
    const { s, ids } = await sessionWithStories({ auto_reveal: true });
    await voteCast(s, ids[0]!, 1, 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(await statusOf(s.owner_id, ids[0]!)).toBe('voting');
    await voteCast(s, ids[0]!, 2, 2);
    const revealed = await h.event('story.revealed', (d) => d.story.id === ids[0]);
    expect(revealed.data).toMatchObject({ next_story_id: ids[1], story: { final_estimate: '5' } });
    expect(revealed.data.story.votes).toHaveLength(2);
    expect(await statusOf(s.owner_id, ids[1]!)).toBe('voting');
  });

  it('reveals when the last two votes committed together and each event still counted one short', async () => {
    const { s, ids } = await sessionWithStories({ auto_reveal: true });
    h.fake.setVoters(ids[0]!, 2);
    const asked = h.fake.calls.stats;
    await voteCast(s, ids[0]!, 1, 2);
    await voteCast(s, ids[0]!, 1, 2); // the count inside its transaction missed the other vote
    const revealed = await h.event('story.revealed', (d) => d.story.id === ids[0]);
    expect(revealed.data.story.votes).toHaveLength(2);
    expect(h.fake.calls.stats).toBeGreaterThan(asked);
  });

  it('with auto_reveal off, everyone having voted reveals nothing', async () => {
    const { s, ids } = await sessionWithStories({ auto_reveal: false });
    await voteCast(s, ids[0]!, 1, 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await statusOf(s.owner_id, ids[0]!)).toBe('voting');
    expect(h.fake.isSealed(ids[0]!)).toBe(false);
  });

  it('reveals the open story once the vote-by deadline has passed, and not the one opened after it', async () => {
    const deadline = new Date(Date.now() + 800).toISOString();
    const { s, ids } = await sessionWithStories({ voteby_enabled: true, vote_by_at: deadline });
    h.fake.vote(ids[0]!, h.fake.participant('Ann'), '3');
    expect(await statusOf(s.owner_id, ids[0]!)).toBe('voting');
    const revealed = await h.event('story.revealed', (d) => d.story.id === ids[0]);
    expect(new Date(revealed.occurred_at).getTime()).toBeGreaterThanOrEqual(new Date(deadline).getTime());
    expect(revealed.data.story.final_estimate).toBe('3');
    // B became current after the deadline: the owner decides when it is revealed
    await new Promise((r) => setTimeout(r, 500));
    expect(await statusOf(s.owner_id, ids[1]!)).toBe('voting');
  });

  it('does not reveal before the deadline, nor when the deadline is switched off', async () => {
    const soon = new Date(Date.now() + 300).toISOString();
    const { s, ids } = await sessionWithStories({ voteby_enabled: false, vote_by_at: soon }, ['A']);
    const later = await sessionWithStories(
      { voteby_enabled: true, vote_by_at: new Date(Date.now() + 60_000).toISOString() },
      ['A'],
    );
    await new Promise((r) => setTimeout(r, 800));
    expect(await statusOf(s.owner_id, ids[0]!)).toBe('voting');
    expect(await statusOf(later.s.owner_id, later.ids[0]!)).toBe('voting');
  });
});
