/**
 * After the traffic: let the system settle (outboxes drained, webhooks delivered, clients caught up,
 * each wait bounded), then read back what it holds.
 */
import type { Room } from './api.ts';
import { send } from './client.ts';
import type { RevealedVote } from './ledger.ts';
import type { FinalStory, RoomState } from './observations.ts';
import { catchUp, readHistory, type LiveClient } from './room-clients.ts';
import type { PreparedRoom } from './setup.ts';
import type { WebhookReceiver } from './webhook-receiver.ts';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls every unit's outbox until all are empty; returns the last counts (bounded by `timeoutMs`). */
export async function drainOutboxes(read: () => Promise<Record<string, number | null>>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await read();
    if (Object.values(counts).every((n) => n === 0) || Date.now() > deadline) return counts;
    await pause(500);
  }
}

interface StoryAnswer {
  id: string;
  status: string;
  final_estimate: string | null;
  votes: Array<{ participant: { id: number }; value: string }> | null;
}

/** The room's stories as its public view has them at the end (a few tries: the system is back by now). */
async function finalStories(base: string, room: Room): Promise<FinalStory[]> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const answer = await send('GET', `${base}/sessions/${room.code}/stories`, { timeoutMs: 20_000 });
    if (answer.outcome === 'ok')
      return (answer.body.stories as StoryAnswer[]).map((s) => ({
        id: s.id,
        status: s.status,
        finalEstimate: s.final_estimate,
        votes:
          s.votes?.map((v): RevealedVote => ({ participantId: v.participant.id, value: v.value })) ?? null,
      }));
    await pause(1_000);
  }
  throw new Error(`room ${room.code}: its stories could not be read at the end`);
}

/** Waits (bounded) until every reveal of the history has reached the receiver, then a little more for late repeats. */
async function awaitWebhooks(rooms: RoomState[], receiver: WebhookReceiver, timeoutMs: number) {
  const reveals = rooms.flatMap((r) =>
    r.history.filter((e) => e.type === 'story.revealed').map((e) => e.data.story?.id),
  );
  const deadline = Date.now() + timeoutMs;
  const arrived = () => reveals.every((id) => receiver.deliveries.some((d) => d.storyId === id));
  while (!arrived() && Date.now() < deadline) await pause(250);
  await pause(3_000);
}

/** The final state of every room; the live clients are caught up to its last event and stopped. */
export async function readBack(
  base: string,
  prepared: PreparedRoom[],
  receiver: WebhookReceiver,
): Promise<RoomState[]> {
  const rooms: RoomState[] = [];
  for (const { room, first, clients } of prepared) {
    const history = await readHistory(base, room.code, first);
    const last = history.at(-1)!.id;
    await Promise.all(clients.map((c: LiveClient) => catchUp(c, last, 15_000)));
    await Promise.all(clients.map((c) => c.stop()));
    rooms.push({ code: room.code, stories: await finalStories(base, room), history });
  }
  await awaitWebhooks(rooms, receiver, 60_000);
  return rooms;
}
