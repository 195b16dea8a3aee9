import { atMost } from '@pp/async';
import type { Identity } from '@pp/http';
import type { RoomStory } from '../clients/stories.client.ts';
import { listParticipants } from '../db/participant.repository.ts';
import { connectedIn } from '../db/presence.repository.ts';
import { lastRoomPositionOf } from '../db/room-event.repository.ts';
import { roundCounts, votersOfRound } from '../db/vote.repository.ts';
import { voteStats } from '../domain/vote-rules.ts';
import { streamPlace } from '../domain/room-events.ts';
import type { SessionsContext } from './shared/context.ts';
import { findSession } from './shared/find-session.ts';
import { lookUpSession } from './look-up-session.use-case.ts';

/**
 * How long the room waits for the stories unit: a busy unit answers within it (as for the activity);
 * past it the room answers without its stories and the page reads them from the stories unit.
 */
const STORIES_AT_MOST_MS = 3_000;

/**
 * Everything a page needs to open a room, in one read: the session (the full record for its owner),
 * who is in the room (and who of them is connected now), the stories as the room shows them (from the stories unit, no lock held meanwhile;
 * null when it cannot answer in time), the open round (who voted, never what, and the counts), and the
 * place in the live stream to resume from (Last-Event-ID). That place is taken before anything is
 * read: every event up to it is in what is read (a change is published only once committed), and the
 * stream resumed from it replays every later one. An event whose change the read already shows may
 * come again: applying it again leaves the room as it is.
 */
export async function openRoom(
  ctx: SessionsContext,
  code: string,
  identity: Identity | undefined,
  livePlace: number | undefined,
) {
  const place = livePlace ?? (await recordedPlace(ctx, code));
  const found = await lookUpSession(ctx, code, identity);
  const sessionId = found.session.id;
  const stories = ctx.stories.roomStories(sessionId).catch((err: unknown): RoomStory[] | null => {
    ctx.logger.warn({ err, session_id: sessionId }, 'room opened without its stories');
    return null;
  });
  const current = found.facts.currentStory;
  const [participants, connected, round, roomStories] = await Promise.all([
    listParticipants(ctx.em, sessionId),
    connectedIn(ctx.em, sessionId),
    current?.status === 'voting' ? openRound(ctx, sessionId, current.id) : null,
    atMost(STORIES_AT_MOST_MS, stories, null),
  ]);
  return { ...found, participants, connected, stories: roomStories, round, lastEventId: streamPlace(place) };
}

/**
 * Where the room's record ends for the session, when the live feed is not up yet (a replica that is
 * starting): every event of the session up to it is recorded, so published, so committed.
 */
async function recordedPlace(ctx: SessionsContext, code: string) {
  const session = await findSession(ctx.em, code);
  return (await lastRoomPositionOf(ctx.em, session.id)) ?? 0;
}

async function openRound(ctx: SessionsContext, sessionId: string, storyId: string) {
  const [voted, counts] = await Promise.all([
    votersOfRound(ctx.em, storyId),
    roundCounts(ctx.em, sessionId, storyId),
  ]);
  return { storyId, voted, stats: voteStats(counts.votesCast, counts.totalParticipants) };
}
