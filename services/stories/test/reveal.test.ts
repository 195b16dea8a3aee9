import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { TestResponse } from '@pp/testing';
import { as, startStories, type StoriesHarness } from './support/stories-harness.ts';

describe('reveal and reset', () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  async function sessionWithStories(titles: string[], overrides = {}) {
    const s = await h.session(overrides);
    const ids: string[] = [];
    for (const title of titles) {
      const res = await h.client.post(`/sessions/${s.code}/stories`, { body: { title }, ...as(s.owner_id) });
      ids.push(res.body.story.id);
    }
    return { s, ids };
  }
  const castVotes = (storyId: string, values: string[]) =>
    values.map((value, i) => {
      const p = h.fake.participant(`Voter ${i + 1}`);
      h.fake.vote(storyId, p, value);
      return p;
    });

  it('reveals the votes with the consensus and makes the next pending story current', async () => {
    const { s, ids } = await sessionWithStories(['A', 'B', 'C']);
    castVotes(ids[0]!, ['1', '1', '2', '13', '13', '?']);
    const res = await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    expect(res.status).toBe(200);
    expect(res.body.story).toMatchObject({ id: ids[0], title: 'A', status: 'revealed', final_estimate: '2' });
    expect(res.body.story.votes).toHaveLength(6);
    expect(res.body.story.votes[0]).toEqual({
      participant: { id: expect.any(Number), name: 'Voter 1' },
      value: '1',
    });
    expect(res.body.next_story).toMatchObject({ id: ids[1], status: 'voting' });
    expect(h.fake.isSealed(ids[0]!)).toBe(true);

    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(room.body.stories.map((x: { status: string }) => x.status)).toEqual([
      'revealed',
      'voting',
      'pending',
    ]);
    const event = await h.event('story.revealed', (d) => d.story.id === ids[0]);
    expect(event.data).toMatchObject({
      session_id: s.id,
      next_story_id: ids[1],
      story: { final_estimate: '2', status: 'revealed' },
      record_vote_names: true,
    });
    expect(event.data.story.votes).toHaveLength(6);
  });

  it('revealing again answers 409 story_already_revealed', async () => {
    const { s, ids } = await sessionWithStories(['A']);
    expect((await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id))).status).toBe(200);
    const again = await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      success: false,
      message: expect.any(String),
      error: { code: 'story_already_revealed' },
    });
  });

  it('of several reveals at once, exactly one answers 200 and the others 409', async () => {
    const { s, ids } = await sessionWithStories(['A', 'B']);
    castVotes(ids[0]!, ['3', '5', '5']);
    const results = await Promise.all(
      [1, 2, 3].map(() => h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(room.body.stories.map((x: { status: string }) => x.status)).toEqual(['revealed', 'voting']);
    await h.event('story.revealed', (d) => d.story.id === ids[0]);
    await new Promise((r) => setTimeout(r, 200));
    expect(
      h.published.filter(
        (e) => e.type === 'story.revealed' && (e.data as { story: { id: string } }).story.id === ids[0],
      ),
    ).toHaveLength(1);
  });

  it('in any order of votes and two reveals, one reveal wins and it has exactly the votes that were accepted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (scheduler) => {
        const { s, ids } = await sessionWithStories(['A']);
        const voters = ['Ann', 'Bob', 'Cy', 'Dee'].map((name) => h.fake.participant(name));
        const accepted: string[] = [];
        const votes = voters.map((p) =>
          scheduler.schedule(Promise.resolve(`vote ${p.name}`)).then(() => {
            try {
              h.fake.vote(ids[0]!, p, '5');
              accepted.push(p.name);
            } catch {
              // refused: the round was sealed first
            }
          }),
        );
        const reveals = [1, 2].map((n) =>
          scheduler
            .schedule(Promise.resolve(`reveal ${n}`))
            .then(() => h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id))),
        );
        await scheduler.waitIdle();
        await Promise.all(votes);
        const answers: TestResponse[] = await Promise.all(reveals);
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
        const winner = answers.find((a) => a.status === 200)!;
        const named = winner.body.story.votes.map(
          (v: { participant: { name: string } }) => v.participant.name,
        );
        expect(named.sort()).toEqual(accepted.sort());
      }),
      { numRuns: 10 },
    );
  });

  it('only the owner reveals: 401 anonymous, 403 someone else, 404 unknown', async () => {
    const { ids } = await sessionWithStories(['A']);
    expect((await h.client.post(`/stories/${ids[0]}/reveal`)).status).toBe(401);
    expect((await h.client.post(`/stories/${ids[0]}/reveal`, as(randomUUID()))).status).toBe(403);
    expect((await h.client.post(`/stories/${randomUUID()}/reveal`, as(randomUUID()))).status).toBe(404);
    expect(h.fake.isSealed(ids[0]!)).toBe(false);
  });

  it('without record_vote_names the reveal names the voters but the stored votes do not', async () => {
    const { s, ids } = await sessionWithStories(['A'], { record_vote_names: false });
    castVotes(ids[0]!, ['8', '5']);
    const revealed = await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    expect(
      revealed.body.story.votes.map((v: { participant: { name: string } }) => v.participant.name),
    ).toEqual(['Voter 1', 'Voter 2']);
    expect(revealed.body.story.final_estimate).toBe('8');
    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(room.body.stories[0].votes).toEqual([
      { participant: { id: null, name: null }, value: '8' },
      { participant: { id: null, name: null }, value: '5' },
    ]);
    const read = await h.client.get(`/stories/${ids[0]}`, as(s.owner_id));
    expect(
      read.body.story.votes.every((v: { participant: { name: null } }) => v.participant.name === null),
    ).toBe(true);
  });

  it('with record_vote_names the room view names the voters after reveal', async () => {
    const { s, ids } = await sessionWithStories(['A']);
    castVotes(ids[0]!, ['XS']);
    await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(room.body.stories[0].votes).toEqual([
      { participant: { id: expect.any(Number), name: 'Voter 1' }, value: 'XS' },
    ]);
    // XS is not a card of the fibonacci deck: nothing counts
    expect(room.body.stories[0].final_estimate).toBeNull();
  });

  it('computes the consensus over the session deck (t-shirt sizes)', async () => {
    const deck = ['XS', 'S', 'M', 'L', 'XL', 'XXL', '?', 'coffee'];
    const { s, ids } = await sessionWithStories(['A'], { voting_system: 'tshirt', deck });
    castVotes(ids[0]!, ['XS', 'M', 'M']);
    expect((await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id))).body.story.final_estimate).toBe(
      'M',
    );
  });

  it('reset after a reveal clears the votes, the estimate, and opens the story again as the current one', async () => {
    const { s, ids } = await sessionWithStories(['A', 'B']);
    castVotes(ids[0]!, ['5']);
    await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    expect((await h.client.post(`/stories/${ids[0]}/reset`, as(randomUUID()))).status).toBe(403);
    const reset = await h.client.post(`/stories/${ids[0]}/reset`, as(s.owner_id));
    expect(reset.status).toBe(200);
    expect(reset.body.story).toMatchObject({
      status: 'voting',
      final_estimate: null,
      votes: null,
      revealed_at: null,
    });
    expect(h.fake.votesOf(ids[0]!)).toEqual([]);
    expect(h.fake.isSealed(ids[0]!)).toBe(false);
    expect((await h.client.get(`/stories/${ids[1]}`, as(s.owner_id))).body.story.status).toBe('pending');
    await h.event('story.reset', (d) => d.story.id === ids[0]);
    expect((await h.event('story.activated', (d) => d.story.id === ids[0])).data.previous_story_id).toBe(
      ids[1],
    );
    // a re-vote can be revealed again
    castVotes(ids[0]!, ['8']);
    const again = await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    expect(again.body.story).toMatchObject({ status: 'revealed', final_estimate: '8' });
  });

  it('a revealed story cannot be activated (reset it instead): 409', async () => {
    const { s, ids } = await sessionWithStories(['A', 'B']);
    await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    const res = await h.client.post(`/stories/${ids[0]}/activate`, as(s.owner_id));
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('story_already_revealed');
  });

  it('answers 503 when the sessions service is down, and the story stays unrevealed', async () => {
    const { s, ids } = await sessionWithStories(['A']);
    h.fake.setDown(true);
    try {
      const res = await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('sessions_unavailable');
    } finally {
      h.fake.setDown(false);
    }
    expect((await h.client.get(`/stories/${ids[0]}`, as(s.owner_id))).body.story.status).toBe('voting');
  });
});
