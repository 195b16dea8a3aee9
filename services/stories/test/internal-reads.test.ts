import { randomUUID } from 'node:crypto';
import { IDENTITY_HEADER, signIdentity } from '@pp/http';
import { until } from '@pp/testing';
import { forgetOldStoryHistory } from '../src/use-cases/forget-story-history.use-case.ts';
import { as, KEY, startStories, type StoriesHarness } from './support/stories-harness.ts';

const asService = {
  headers: {
    [IDENTITY_HEADER]: signIdentity(KEY, { sub: 'ai', kind: 'service', iss: 'ai', aud: 'stories' }),
  },
};

describe("reading a session's stories for another unit", () => {
  let h: StoriesHarness;
  beforeAll(async () => {
    h = await startStories();
  });
  afterAll(() => h.stop());

  it('gives each story its text in queue order, and the vote values (never names) of revealed ones only', async () => {
    const s = await h.session({ record_vote_names: true });
    const [first, second] = await h.stories(s, ['Checkout', 'Refunds']);
    await h.client.patch(`/stories/${first}`, {
      body: { description: 'As a buyer I want to pay', acceptance_criteria: 'Given a cart' },
      ...as(s.owner_id),
    });
    await h.castVotes(s, ['5', '8']);
    expect((await h.client.post(`/stories/${first}/reveal`, as(s.owner_id))).status).toBe(200);

    const res = await h.client.get(`/internal/sessions/${s.id}/stories`, asService);
    expect(res.status).toBe(200);
    expect(res.body.stories).toEqual([
      expect.objectContaining({
        id: first,
        title: 'Checkout',
        description: 'As a buyer I want to pay',
        acceptance_criteria: 'Given a cart',
        status: 'revealed',
        final_estimate: expect.any(String),
        votes: expect.arrayContaining(['5', '8']),
      }),
      expect.objectContaining({ id: second, status: 'voting', final_estimate: null, votes: [] }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain('Voter 1');

    expect(res.body.stories[0].revealed_at).toBe(new Date(res.body.stories[0].revealed_at).toISOString());

    const one = await h.client.get(`/internal/sessions/${s.id}/stories?ids=${second}`, asService);
    expect(one.body.stories.map((x: { id: string }) => x.id)).toEqual([second]);
  });

  it('narrows the list to stories in the states asked for, and to ids and states together', async () => {
    const s = await h.session();
    const [first, second, third] = await h.stories(s, ['One', 'Two', 'Three']);
    await h.castVotes(s, ['3']);
    expect((await h.client.post(`/stories/${first}/reveal`, as(s.owner_id))).status).toBe(200);
    const ids = async (query: string) => {
      const res = await h.client.get(`/internal/sessions/${s.id}/stories?${query}`, asService);
      expect(res.status).toBe(200);
      return res.body.stories.map((x: { id: string }) => x.id);
    };
    expect(await ids('status=voting')).toEqual([second]);
    expect(await ids('status=revealed')).toEqual([first]);
    expect(await ids('status=pending,revealed')).toEqual([first, third]);
    expect(await ids(`status=voting&ids=${first},${second}`)).toEqual([second]);
    expect(await ids(`status=voting&ids=${first}`)).toEqual([]);
    expect(await ids('ids=')).toEqual([]);
    expect((await h.client.get(`/internal/sessions/${s.id}/stories?status=done`, asService)).status).toBe(
      422,
    );
  });

  it('answers an empty list for a session without stories, and refuses users (403), bad ids in the query (422) and a path that names no session (404)', async () => {
    const empty = await h.client.get(`/internal/sessions/${randomUUID()}/stories`, asService);
    expect(empty.status).toBe(200);
    expect(empty.body.stories).toEqual([]);
    const s = await h.session();
    expect((await h.client.get(`/internal/sessions/${s.id}/stories`, as(s.owner_id))).status).toBe(403);
    expect((await h.client.get(`/internal/sessions/${s.id}/stories?ids=nope`, asService)).status).toBe(422);
    expect((await h.client.get(`/internal/sessions/not-a-uuid/stories`, asService)).status).toBe(404);
  });

  it("gives the session's latest story events, newest first, as they were published; forgets them after a day", async () => {
    const s = await h.session();
    const [first] = await h.stories(s, ['History', 'More']);
    expect((await h.client.post(`/stories/${first}/reveal`, as(s.owner_id))).status).toBe(200);
    const res = await h.client.get(`/internal/sessions/${s.id}/history?limit=2`, asService);
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(['story.revealed', 'story.created']);
    const revealed = res.body.events[0];
    await until(async () => h.published.find((e) => e.id === revealed.id));
    expect(revealed).toEqual(h.published.find((e) => e.id === revealed.id));
    // Published with the round version of its change: the sessions unit learns from it that the change
    // is committed.
    expect(revealed.round_version).toEqual(expect.any(Number));
    expect((await h.client.get(`/internal/sessions/${s.id}/history`, as(s.owner_id))).status).toBe(403);

    const em = h.service.runtime.db.fork();
    await em
      .getConnection()
      .execute(`update story_history set occurred_at = now() - interval '25 hours' where event_id = ?`, [
        revealed.id,
      ]);
    expect(await forgetOldStoryHistory(em, new Date())).toBe(1);
    const kept = await h.client.get(`/internal/sessions/${s.id}/history`, asService);
    expect(kept.body.events.map((e: { id: string }) => e.id)).not.toContain(revealed.id);
    expect(kept.body.events).toHaveLength(2);
  });
});
