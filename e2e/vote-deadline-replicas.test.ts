/**
 * Two replicas of the sessions and the stories units behind round-robin proxies, the gateway in front:
 * both stories replicas look for passed vote-by deadlines every 50 ms, and every story open at its
 * deadline is revealed once, within 5 seconds of it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { until } from '@pp/testing';
import { watchEvents } from './support/events.ts';
import { startPlatform, type Platform } from './support/platform.ts';

const SESSIONS = 8;

describe('vote-by deadlines with two replicas of each unit', () => {
  let p: Platform;
  let events: Awaited<ReturnType<typeof watchEvents>>;
  beforeAll(async () => {
    p = await startPlatform({ replicas: 2, storiesEnv: { VOTE_BY_POLL_MS: '50' } });
    events = await watchEvents(p.prefix);
  });
  afterAll(async () => {
    await events.close();
    await p.stop();
  });

  it('reveals each story open at its deadline once, and leaves the one opened after it open', async () => {
    const token = await p.signUp('Dora');
    const rooms = await Promise.all(
      Array.from({ length: SESSIONS }, async (_, i) => {
        const session = (await p.client.post('/sessions', { body: { name: `Deadline ${i}` }, token })).body
          .session;
        const stories: string[] = [];
        for (const title of ['Due', 'Next'])
          stories.push(
            (await p.client.post(`/sessions/${session.code}/stories`, { body: { title }, token })).body.story
              .id,
          );
        const voter = (await p.client.post(`/sessions/${session.code}/join`, { body: { name: 'Vi' } })).body
          .participant.id;
        const vote = await p.client.post(`/sessions/${session.code}/vote`, {
          body: { participant_id: voter, vote: '8' },
        });
        expect(vote.status).toBe(200);
        return { code: session.code as string, stories };
      }),
    );
    // Far enough ahead that the last of the eight changes still sets a deadline to come (one in the
    // past is refused) on a busy machine.
    const deadline = new Date(Date.now() + 4_000);
    for (const room of rooms) {
      const res = await p.client.patch(`/sessions/${room.code}`, {
        body: { voteby_enabled: true, vote_by_at: deadline.toISOString() },
        token,
      });
      expect(res.status).toBe(200);
    }

    const revealedOf = (storyId: string) =>
      events.of('story.revealed').filter((e) => e.data.story.id === storyId);
    await until(async () => rooms.every((r) => revealedOf(r.stories[0]!).length > 0), 15_000);
    // Both replicas keep polling: give them time to try again.
    await sleep(1_000);
    for (const room of rooms) {
      const [revealed, ...again] = revealedOf(room.stories[0]!);
      expect(again).toEqual([]);
      expect(revealed!.data.story.final_estimate).toBe('8');
      const at = Date.parse(revealed!.occurred_at);
      expect(at).toBeGreaterThanOrEqual(deadline.getTime());
      expect(at - deadline.getTime()).toBeLessThan(5_000);
      expect(revealedOf(room.stories[1]!)).toEqual([]);
      const lookup = await p.client.get(`/sessions/${room.code}`);
      expect(lookup.body.session.current_story.id).toBe(room.stories[1]);
      const listed = await p.client.get(`/sessions/${room.code}/stories`);
      expect(listed.body.stories.map((s: { status: string }) => s.status)).toEqual(['revealed', 'voting']);
    }
  });
});
