/** Voting and revealing at scale, and restarts of the stories service, with the real sessions service. */
import { as, startStories, until, type StoriesHarness } from './support/stories-harness.ts';

describe('end to end with the real sessions service', () => {
  let e: StoriesHarness;
  beforeAll(async () => {
    e = await startStories();
  });
  afterAll(() => e.stop());

  /** A session with stories (in order: the first one current) and voters joined. */
  const room = async (settings: Record<string, unknown>, titles: string[], voterNames: string[]) => {
    const session = await e.session(settings);
    const stories = await e.stories(session, titles);
    const voters: number[] = [];
    for (const name of voterNames) voters.push(await e.join(session.code, name));
    return { session, owner: session.owner_id, stories, voters };
  };

  it('50 participants vote, and the reveal has all 50 votes', async () => {
    const session = await e.session({}, false);
    const owner = session.owner_id;
    const [storyId] = await e.stories(session, ['Checkout']); // right after creation: maybe the fallback
    const participants = await Promise.all(
      Array.from({ length: 50 }, (_, i) => e.join(session.code, `Voter ${i + 1}`)),
    );
    expect(await e.currentStory(session.code)).toBe(storyId);
    const values = participants.map((_, i) => (i < 30 ? '5' : i < 45 ? '8' : '13'));
    const answers = await Promise.all(participants.map((id, i) => e.vote(session.code, id, values[i]!)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.at(-1)!.body.stats).toMatchObject({ total_participants: 50 });

    const revealed = await e.client.post(`/stories/${storyId}/reveal`, as(owner));
    expect(revealed.status).toBe(200);
    expect(revealed.body.story.votes).toHaveLength(50);
    expect(
      new Set(revealed.body.story.votes.map((v: { participant: { name: string } }) => v.participant.name))
        .size,
    ).toBe(50);
    expect(revealed.body.story.final_estimate).toBe('5');
    const late = await e.vote(session.code, participants[0]!, '8');
    expect(late.status).toBe(409);
  });

  it('votes racing the reveal are either in the revealed votes or refused with 409, never lost', async () => {
    const session = await e.session();
    const owner = session.owner_id;
    const [storyId] = await e.stories(session, ['Race']);
    const names = Array.from({ length: 30 }, (_, i) => `Racer ${i + 1}`);
    const ids = await Promise.all(names.map((n) => e.join(session.code, n)));
    // votes spread over ~600 ms, the reveal early among them
    const votes = ids.map((id, i) =>
      new Promise((r) => setTimeout(r, i * 20)).then(() => e.vote(session.code, id, '3')),
    );
    const reveal = new Promise((r) => setTimeout(r, 100)).then(() =>
      e.client.post(`/stories/${storyId}/reveal`, as(owner)),
    );
    const [answers, revealed] = await Promise.all([Promise.all(votes), reveal]);
    expect(revealed.status).toBe(200);
    const accepted = names.filter((_, i) => answers[i]!.status === 200).sort();
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.every((a) => a.status === 409)).toBe(true);
    const inReveal = revealed.body.story.votes
      .map((v: { participant: { name: string } }) => v.participant.name)
      .sort();
    expect(accepted.length).toBeGreaterThan(0);
    expect(inReveal).toEqual(accepted);
  });

  it('a restart of the stories service in the middle of voting and revealing loses no event', async () => {
    const { session, owner, stories, voters } = await room(
      { auto_reveal: true },
      ['A', 'B', 'C'],
      ['Ann', 'Bob', 'Cy'],
    );
    const [a, b, c] = stories as [string, string, string];

    // The sessions service knows the change that opened A's round is committed (told after the commit).
    await until(() => e.roundConfirmed(a));
    await e.stopStories(); // votes arrive while stories is down: its durable consumer gets them later
    for (const [i, id] of voters.entries())
      expect((await e.vote(session.code, id, ['3', '5', '5'][i]!)).status).toBe(200);
    await e.startStories();

    // auto_reveal after the restart (the durable consumer gets the votes), and sessions moved on
    await e.event('story.revealed', (d) => d.story.id === a);
    expect(await e.currentStory(session.code)).toBe(b);
    const storyA = await e.client.get(`/stories/${a}`, as(owner));
    expect(storyA.body.story).toMatchObject({ status: 'revealed', final_estimate: '5' });
    expect(storyA.body.story.votes).toHaveLength(3);

    // a reveal whose event may still be in the outbox when the service stops
    const revealB = await e.client.post(`/stories/${b}/reveal`, as(owner));
    expect(revealB.status).toBe(200);
    await e.stopStories();
    await e.startStories();
    expect(await e.currentStory(session.code)).toBe(c);
    expect((await e.vote(session.code, voters[0]!, '8')).status).toBe(200);
  });

  it('auto-reveals when the last one who had not voted leaves the room or becomes an observer', async () => {
    const { session, owner, stories, voters } = await room(
      { auto_reveal: true },
      ['A', 'B', 'C'],
      ['Ann', 'Bob', 'Cy', 'Dee'],
    );
    const [a, b, c] = stories as [string, string, string];
    const [ann, bob, cy, dee] = voters as [number, number, number, number];
    expect((await e.vote(session.code, ann, '5')).status).toBe(200);
    expect((await e.vote(session.code, bob, '5')).status).toBe(200);
    expect((await e.vote(session.code, cy, '8')).status).toBe(200);
    const removed = await e.sessionsApi.delete(`/sessions/${session.code}/participants/${dee}`, as(owner));
    expect(removed.status).toBe(200);
    await e.event('story.revealed', (d) => d.story.id === a);
    expect(await e.currentStory(session.code)).toBe(b);
    const storyA = await e.client.get(`/stories/${a}`, as(owner));
    expect(storyA.body.story).toMatchObject({ status: 'revealed', final_estimate: '5' });
    expect(storyA.body.story.votes).toHaveLength(3);

    expect((await e.vote(session.code, ann, '3')).status).toBe(200);
    expect((await e.vote(session.code, bob, '3')).status).toBe(200);
    const observer = await e.sessionsApi.patch(`/sessions/${session.code}/participants/${cy}`, {
      body: { role: 'observer' },
      ...as(owner),
    });
    expect(observer.status).toBe(200);
    await e.event('story.revealed', (d) => d.story.id === b);
    expect(await e.currentStory(session.code)).toBe(c);
    const storyB = await e.client.get(`/stories/${b}`, as(owner));
    expect(storyB.body.story).toMatchObject({ status: 'revealed', final_estimate: '3' });
  });
});
