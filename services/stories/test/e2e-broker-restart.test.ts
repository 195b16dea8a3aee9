/**
 * End to end with a NATS server of the test's own, stopped and started again in the middle of a
 * vote-and-reveal sequence: what happened while the broker was away reaches every service after it.
 */
import { randomUUID } from 'node:crypto';
import { startNatsServer } from '@pp/testing';
import { startEndToEnd, type EndToEnd } from './support/e2e-harness.ts';
import { as } from './support/stories-harness.ts';

describe('end to end: NATS restarts in the middle of voting and revealing', () => {
  let nats: Awaited<ReturnType<typeof startNatsServer>>;
  let e: EndToEnd;
  beforeAll(async () => {
    nats = await startNatsServer();
    e = await startEndToEnd({ natsUrl: nats.url });
  });
  afterAll(async () => {
    await e.stop();
    await nats.destroy();
  });

  it('loses no event: auto-reveal, the next story and a manual reveal all happen after the broker returns', async () => {
    const owner = randomUUID();
    const { session, stories, voters } = await e.room(
      owner,
      { auto_reveal: true },
      ['A', 'B', 'C'],
      ['Ann', 'Bob'],
    );
    const [a, b, c] = stories as [string, string, string];

    await nats.stop();
    // Votes are taken without the broker: vote.cast waits in the sessions outbox.
    for (const id of voters) expect((await e.vote(session.code, id, '8')).status).toBe(200);
    await nats.restart();

    // vote.cast reaches stories, which auto-reveals; story.revealed reaches sessions, which moves on.
    await e.currentStory(session.code, b, 30_000);
    const storyA = await e.storiesApi.get(`/stories/${a}`, as(owner));
    expect(storyA.body.story).toMatchObject({ status: 'revealed', final_estimate: '8' });
    expect(storyA.body.story.votes).toHaveLength(2);

    await nats.stop();
    // A reveal without the broker: the seal is a direct call; story.revealed waits in the stories outbox.
    expect((await e.vote(session.code, voters[0]!, '3')).status).toBe(200);
    const revealB = await e.storiesApi.post(`/stories/${b}/reveal`, as(owner));
    expect(revealB.status).toBe(200);
    expect(revealB.body.story.votes).toHaveLength(1);
    await nats.restart();
    await e.currentStory(session.code, c, 30_000);
    expect((await e.vote(session.code, voters[1]!, '5')).status).toBe(200);
  });
});
