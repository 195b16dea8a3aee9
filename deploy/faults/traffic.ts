/**
 * Mixed traffic for a fixed time: in each room a voter (participants vote, one request at a time, so a
 * participant's last 2xx value is well defined) and a moderator (adds, activates and reveals stories,
 * lets people join). Every loop is bounded in time and in count.
 */
import type { Api, Room } from './api.ts';

export interface TrafficLimits {
  /** True once the loops are to stop (the schedule of faults is over, or its time is up). */
  stopped(): boolean;
  /** Most operations one loop sends. */
  maxOperations: number;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
/** The cards votes use: numbers every deck the run creates has. */
const CARDS = ['1', '2', '3', '5', '8', '13'];

async function voter(api: Api, room: Room, limits: TrafficLimits): Promise<void> {
  for (let n = 0; n < limits.maxOperations && !limits.stopped(); n++) {
    const who = room.participants.length > 0 ? pick(room.participants) : undefined;
    if (who) await api.vote(room, who, pick(CARDS.filter((c) => room.deck.includes(c))));
    await pause(40 + Math.random() * 80);
  }
}

/** One step of the owner: open a story when none is, else reveal, add, move or let someone in. */
async function moderate(api: Api, room: Room, step: number): Promise<void> {
  const stories = await api.stories(room);
  if (!stories) return;
  const current = stories.find((s) => s.status === 'voting');
  const pending = stories.filter((s) => s.status === 'pending');
  const roll = Math.random();
  if (!current) {
    if (pending.length > 0) await api.activate(room, pick(pending).id);
    else await api.addStory(room, `Story ${room.code}-${step}`);
  } else if (roll < 0.35) await api.reveal(room, current.id);
  else if (roll < 0.55 && pending.length < 3) await api.addStory(room, `Story ${room.code}-${step}`);
  else if (roll < 0.7 && pending.length > 0) await api.activate(room, pick(pending).id);
  else if (roll < 0.8) await api.join(room, `Guest ${step}`);
}

async function moderator(api: Api, room: Room, limits: TrafficLimits): Promise<void> {
  for (let n = 0; n < limits.maxOperations && !limits.stopped(); n++) {
    await moderate(api, room, n);
    await pause(150 + Math.random() * 200);
  }
}

export function driveTraffic(api: Api, rooms: Room[], limits: TrafficLimits): Promise<void> {
  return Promise.all(rooms.flatMap((room) => [voter(api, room, limits), moderator(api, room, limits)])).then(
    () => undefined,
  );
}

/**
 * After the traffic: every story that is not revealed yet is revealed (a story without votes may be
 * refused), so that every 2xx vote can be found in its story's votes. Bounded attempts per story.
 */
export async function revealTheRest(api: Api, room: Room): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const stories = await api.stories(room);
    if (!stories) {
      await pause(1_000);
      continue;
    }
    const open = stories.filter((s) => s.status !== 'revealed');
    if (open.length === 0) return;
    for (const story of open) {
      if (story.status !== 'voting' && (await api.activate(room, story.id)).outcome !== 'ok') continue;
      await api.reveal(room, story.id);
    }
  }
}
