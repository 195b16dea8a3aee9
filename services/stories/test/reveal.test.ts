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

  async function sessionWithStories(titles: string[], settings: Record<string, unknown> = {}) {
    const s = await h.session(settings);
    return { s, ids: await h.stories(s, titles) };
  }
  const names = (votes: Array<{ participant: { name: string | null } }>) =>
    votes.map((v) => v.participant.name);

  it('reveals the votes with the consensus and makes the next pending story current', async () => {
    const { s, ids } = await sessionWithStories(['A', 'B', 'C'], { record_vote_names: true });
    await h.castVotes(s, ['1', '1', '2', '13', '13', '?']);
    const res = await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    expect(res.status).toBe(200);
    expect(res.body.story).toMatchObject({ id: ids[0], title: 'A', status: 'revealed', final_estimate: '2' });
    expect(res.body.story.votes).toHaveLength(6);
    expect(res.body.story.votes[0]).toEqual({
      participant: { id: expect.any(Number), name: 'Voter 1' },
      value: '1',
    });
    expect(res.body.next_story).toMatchObject({ id: ids[1], status: 'voting' });
    expect(await h.currentStory(s.code)).toBe(ids[1]);

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

  it('keeps the texts and kept votes of the stories a change moves without being about them', async () => {
    const s = await h.session({ record_vote_names: true });
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await h.client.post(`/sessions/${s.code}/stories`, {
        body: { title: `S${n}`, description: `Text ${n}\n`.repeat(50), acceptance_criteria: `Given ${n}` },
        ...as(s.owner_id),
      });
      ids.push(res.body.story.id);
    }
    await h.castVotes(s, ['3', '5', '5']);
    expect((await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id))).status).toBe(200);
    // Each of these changes the status or place of stories other than the one it names.
    expect((await h.client.post(`/stories/${ids[2]}/activate`, as(s.owner_id))).status).toBe(200);
    const moved = await h.client.patch(`/stories/${ids[2]}`, { body: { position: 1 }, ...as(s.owner_id) });
    expect(moved.status).toBe(200);
    expect((await h.client.delete(`/stories/${ids[2]}`, as(s.owner_id))).status).toBe(200);

    const first = (await h.client.get(`/stories/${ids[0]}`, as(s.owner_id))).body.story;
    expect(first).toMatchObject({ status: 'revealed', final_estimate: '5', position: 1 });
    expect(first.description).toBe('Text 1\n'.repeat(50));
    expect(first.acceptance_criteria).toBe('Given 1');
    expect(first.votes.map((v: { value: string }) => v.value).sort()).toEqual(['3', '5', '5']);
    const second = (await h.client.get(`/stories/${ids[1]}`, as(s.owner_id))).body.story;
    expect(second).toMatchObject({ status: 'voting', position: 2, acceptance_criteria: 'Given 2' });
    expect(second.description).toBe('Text 2\n'.repeat(50));
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

  it('takes no fields: a reveal with a field (a final estimate of the client’s own) is 422 and reveals nothing; none or {} reveals', async () => {
    const { s, ids } = await sessionWithStories(['A', 'B']);
    const forced = await h.client.post(`/stories/${ids[0]}/reveal`, {
      body: { final_estimate: '8' },
      ...as(s.owner_id),
    });
    expect(forced.status).toBe(422);
    expect(forced.body.errors._body).toEqual([expect.stringContaining('final_estimate')]);
    expect((await h.client.get(`/stories/${ids[0]}`, as(s.owner_id))).body.story.status).toBe('voting');
    expect((await h.client.post(`/stories/${ids[0]}/reveal`, { body: {}, ...as(s.owner_id) })).status).toBe(
      200,
    );
    expect((await h.client.post(`/stories/${ids[1]}/reveal`, as(s.owner_id))).status).toBe(200);
  });

  it('of several reveals at once, exactly one answers 200 and the others 409', async () => {
    const { s, ids } = await sessionWithStories(['A', 'B']);
    await h.castVotes(s, ['3', '5', '5']);
    const results = await Promise.all(
      [1, 2, 3].map(() => h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(room.body.stories.map((x: { status: string }) => x.status)).toEqual(['revealed', 'voting']);
    expect(await h.currentStory(s.code)).toBe(ids[1]);
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
        const voters = await Promise.all(['Ann', 'Bob', 'Cy', 'Dee'].map((name) => h.join(s.code, name)));
        const accepted: string[] = [];
        const votes = voters.map((id, i) =>
          scheduler.schedule(Promise.resolve(`vote ${i}`)).then(async () => {
            if ((await h.vote(s.code, id, '5')).status === 200)
              accepted.push(['Ann', 'Bob', 'Cy', 'Dee'][i]!);
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
        expect(names(winner.body.story.votes).sort()).toEqual(accepted.sort());
      }),
      { numRuns: 10 },
    );
  });

  it('only the owner reveals: 401 anonymous, 403 someone else, 404 unknown; the round stays open', async () => {
    const { s, ids } = await sessionWithStories(['A']);
    expect((await h.client.post(`/stories/${ids[0]}/reveal`)).status).toBe(401);
    expect((await h.client.post(`/stories/${ids[0]}/reveal`, as(randomUUID()))).status).toBe(403);
    expect((await h.client.post(`/stories/${randomUUID()}/reveal`, as(randomUUID()))).status).toBe(404);
    expect(await h.currentStory(s.code)).toBe(ids[0]);
    expect(await h.castVotes(s, ['3'])).toHaveLength(1);
  });

  it('without record_vote_names the reveal names the voters but the stored votes do not', async () => {
    const { s, ids } = await sessionWithStories(['A']);
    await h.castVotes(s, ['8', '5']);
    const revealed = await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    expect(names(revealed.body.story.votes)).toEqual(['Voter 1', 'Voter 2']);
    expect(revealed.body.story.final_estimate).toBe('8');
    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(room.body.stories[0].votes).toEqual([
      { participant: { id: null, name: null }, value: '8' },
      { participant: { id: null, name: null }, value: '5' },
    ]);
    const read = await h.client.get(`/stories/${ids[0]}`, as(s.owner_id));
    expect(names(read.body.story.votes)).toEqual([null, null]);
  });

  it('with record_vote_names the room view names the voters after reveal, and stops the moment it is switched off', async () => {
    const { s, ids } = await sessionWithStories(['A'], { record_vote_names: true });
    await h.castVotes(s, ['?']);
    await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    const room = await h.client.get(`/sessions/${s.code}/stories`);
    expect(room.body.stories[0].votes).toEqual([
      { participant: { id: expect.any(Number), name: 'Voter 1' }, value: '?' },
    ]);
    // ? does not count: no consensus
    expect(room.body.stories[0].final_estimate).toBeNull();

    const off = await h.sessionsApi.patch(`/sessions/${s.code}`, {
      body: { record_vote_names: false },
      ...as(s.owner_id),
    });
    expect(off.status).toBe(200);
    const after = await h.client.get(`/sessions/${s.code}/stories`);
    expect(names(after.body.stories[0].votes)).toEqual([null]);
  });

  it('computes the consensus over the deck the session has at the reveal, even one changed a moment ago', async () => {
    const { s, ids } = await sessionWithStories(['A']);
    await h.castVotes(s, ['3', '5', '5']);
    const changed = await h.sessionsApi.patch(`/sessions/${s.code}`, {
      body: { voting_system: 'custom', custom_deck_values: ['5', '3'] },
      ...as(s.owner_id),
    });
    expect(changed.status).toBe(200);
    const revealed = await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    expect(revealed.body.story.final_estimate).toBe('5');
  });

  it('computes the consensus over the session deck (t-shirt sizes)', async () => {
    const { s, ids } = await sessionWithStories(['A'], { voting_system: 'tshirt' });
    await h.castVotes(s, ['XS', 'M', 'M']);
    const revealed = await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    expect(revealed.body.story.final_estimate).toBe('M');
  });

  it('reset after a reveal clears the votes, the estimate, and opens the story again as the current one', async () => {
    const { s, ids } = await sessionWithStories(['A', 'B']);
    const [voter] = await h.castVotes(s, ['5']);
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
    expect(await h.currentStory(s.code)).toBe(ids[0]);
    expect((await h.client.get(`/stories/${ids[1]}`, as(s.owner_id))).body.story.status).toBe('pending');
    await h.event('story.reset', (d) => d.story.id === ids[0]);
    expect((await h.event('story.activated', (d) => d.story.id === ids[0])).data.previous_story_id).toBe(
      ids[1],
    );
    // a re-vote: the old vote is gone, and the new one can be revealed
    const revote = await h.vote(s.code, voter!, '8');
    expect(revote.body).toMatchObject({ vote: { story_id: ids[0] }, stats: { votes_cast: 1 } });
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

  it('answers 503 when the sessions service cannot be reached, leaves the story as it was, and a retry reveals it', async () => {
    const { s, ids } = await sessionWithStories(['A']);
    await h.castVotes(s, ['5']);
    h.betweenUnits.cut();
    try {
      const res = await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('sessions_unavailable');
    } finally {
      h.betweenUnits.restore();
    }
    expect((await h.client.get(`/stories/${ids[0]}`, as(s.owner_id))).body.story.status).toBe('voting');
    expect(await h.currentStory(s.code)).toBe(ids[0]);
    const retried = await h.client.post(`/stories/${ids[0]}/reveal`, as(s.owner_id));
    expect(retried.status).toBe(200);
    expect(retried.body.story.final_estimate).toBe('5');
  });
});
