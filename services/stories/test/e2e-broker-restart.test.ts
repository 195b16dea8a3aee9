/**
 * End to end with a NATS server of the test's own, stopped and started again in the middle of a
 * vote-and-reveal sequence: what happened while the broker was away reaches every service after it.
 */
import { startNatsServer } from '@pp/testing';
import { as, startStories, type StoriesHarness } from './support/stories-harness.ts';

describe('end to end: NATS restarts in the middle of voting and revealing', () => {
  let nats: Awaited<ReturnType<typeof startNatsServer>>;
  let e: StoriesHarness;
  beforeAll(async () => {
    nats = await startNatsServer();
    e = await startStories({}, { natsUrl: nats.url });
  });
  afterAll(async () => {
    await e.stop();
    await nats.destroy();
  });

  it('loses no event: auto-reveal happens after the broker returns, and a reveal needs no broker', async () => {
    const session = await e.session({ auto_reveal: true });
    const [a, b, c] = await e.stories(session, ['A', 'B', 'C']);
    const voters = [await e.join(session.code, 'Ann'), await e.join(session.code, 'Bob')];

    await nats.stop();
    // Votes are taken without the broker: vote.cast waits in the sessions outbox.
    for (const id of voters) expect((await e.vote(session.code, id, '8')).status).toBe(200);
    await nats.restart();

    // vote.cast reaches stories, which auto-reveals (the sessions unit moves the round at once).
    await e.event('story.revealed', (d) => d.story.id === a);
    expect(await e.currentStory(session.code)).toBe(b);
    const storyA = await e.client.get(`/stories/${a}`, as(session.owner_id));
    expect(storyA.body.story).toMatchObject({ status: 'revealed', final_estimate: '8' });
    expect(storyA.body.story.votes).toHaveLength(2);

    await nats.stop();
    // A reveal without the broker: the round command is a direct call; story.revealed waits in the outbox.
    expect((await e.vote(session.code, voters[0]!, '3')).status).toBe(200);
    const revealB = await e.client.post(`/stories/${b}/reveal`, as(session.owner_id));
    expect(revealB.status).toBe(200);
    expect(revealB.body.story.votes).toHaveLength(1);
    expect(await e.currentStory(session.code)).toBe(c);
    expect((await e.vote(session.code, voters[1]!, '5')).status).toBe(200);
    await nats.restart();
    await e.event('story.revealed', (d) => d.story.id === b);
  });
});
