/**
 * Before the faults: the sessions' owner, the webhook registered for them, and the rooms, each with
 * its live clients connected before anything happens in it (so that the room's first event is the
 * first event of every client: the start of the history the checks read).
 */
import { randomUUID } from 'node:crypto';
import type { Participant, Room } from './api.ts';
import { send } from './client.ts';
import type { RoomEvent } from './observations.ts';
import { followRoom, type LiveClient } from './room-clients.ts';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TIMEOUT_MS = 20_000;

async function ok(
  method: string,
  url: string,
  body?: unknown,
  token?: string,
  headers?: Record<string, string>,
) {
  const answer = await send(method, url, { body, token, headers, timeoutMs: TIMEOUT_MS });
  if (answer.outcome !== 'ok')
    throw new Error(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Signs the owner up and registers a webhook for every reveal of their sessions. */
export async function signUpOwner(base: string, webhookUrl: string): Promise<string> {
  const email = `owner-${randomUUID()}@example.com`;
  const { token } = await ok('POST', `${base}/auth/register`, {
    email,
    password: 'a-long-password',
    name: 'Owner',
  });
  await ok('POST', `${base}/webhooks`, { url: webhookUrl, events: ['story.revealed'] }, token);
  return token as string;
}

export interface PreparedRoom {
  room: Room;
  clients: LiveClient[];
  /** The room's first event, as its clients saw it. */
  first: RoomEvent;
}

async function waitFor(what: string, done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await pause(50);
  }
}

/** A session with `participants` people joined, followed by `clients` live clients (the first one drops its stream now and then on purpose). */
export async function prepareRoom(
  base: string,
  ownerToken: string,
  index: number,
  options: { clients: number; participants: number; dropEveryMs: number },
): Promise<PreparedRoom> {
  // Voters' names (and ids) kept, so that the final votes can be matched with the ledger's.
  const body = { name: `Fault run ${index}`, record_vote_names: true };
  const { session } = await ok('POST', `${base}/sessions`, body, ownerToken);
  const room: Room = { code: session.code, deck: session.deck, participants: [] };
  const clients = Array.from({ length: options.clients }, (_, i) =>
    followRoom(base, room.code, `${room.code}-${i}`, i === 0 ? options.dropEveryMs : undefined),
  );
  await waitFor('the room clients were not connected', () => clients.every((c) => c.open), 20_000);
  // A moment for the server to start feeding the streams it has just answered.
  await pause(300);
  for (let i = 0; i < options.participants; i++) {
    const { participant } = await ok('POST', `${base}/sessions/${room.code}/join`, { name: `Voter ${i}` });
    room.participants.push({ id: participant.id, token: participant.token } as Participant);
  }
  await waitFor(
    'no room client saw the first join',
    () => clients.every((c) => c.view.events.length > 0),
    20_000,
  );
  const first = clients[0]!.view.events[0]!;
  if (clients.some((c) => c.view.events[0]!.id !== first.id))
    throw new Error(`room ${room.code}: the clients saw different first events`);
  return { room, clients, first };
}
