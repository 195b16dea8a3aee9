import type { EntityManager } from '@pp/db';
import { row, rows, run } from './sql.ts';

/** When a stream counts as open: not closed and seen lately, or closed less than the grace ago. */
export interface Liveness {
  /** A stream not seen since is gone (its replica stopped without closing it). */
  seenAfter: Date;
  /** A stream closed after it still counts (a reconnect within the grace does not flicker). */
  closedAfter: Date;
}

const LIVE = `((s.closed_at is null and s.seen_at > ?) or s.closed_at > ?)`;

/**
 * The participant's presence row, locked (FOR UPDATE) for the rest of the transaction: its changes
 * (a stream opened here, the sweep that marks it away) take turns, on every replica.
 */
export async function lockPresence(tx: EntityManager, participantId: number, sessionId: string) {
  await run(
    tx,
    'insert into room_presence (participant_id, session_id) values (?, ?) on conflict (participant_id) do nothing',
    [participantId, sessionId],
  );
  return (await row<{ connected: boolean }>(
    tx,
    'select connected from room_presence where participant_id = ? for update',
    [participantId],
  ))!;
}

export const setConnected = (tx: EntityManager, participantId: number, connected: boolean) =>
  run(tx, 'update room_presence set connected = ? where participant_id = ?', [connected, participantId]);

export const addStream = (
  tx: EntityManager,
  s: { streamId: string; sessionId: string; participantId: number; at: Date },
) =>
  run(tx, 'insert into room_streams (stream_id, session_id, participant_id, seen_at) values (?, ?, ?, ?)', [
    s.streamId,
    s.sessionId,
    s.participantId,
    s.at,
  ]);

export const closeStream = (em: EntityManager, streamId: string, at: Date) =>
  run(em, 'update room_streams set closed_at = ? where stream_id = ? and closed_at is null', [at, streamId]);

/** This replica's open streams are still there. */
export async function touchStreams(em: EntityManager, streamIds: string[], at: Date) {
  if (streamIds.length === 0) return;
  await run(em, 'update room_streams set seen_at = ? where stream_id in (?) and closed_at is null', [
    at,
    streamIds,
  ]);
}

/**
 * The presence sweep's read: connected participants without an open stream (through the index of the
 * connected ones: every participant who ever opened the room keeps a row).
 */
export const LEFT_WITHOUT_STREAM_SQL = `select rp.participant_id from room_presence rp
      where rp.connected and not exists (
        select 1 from room_streams s where s.participant_id = rp.participant_id and ${LIVE})
      limit ?`;

/** Participants announced as connected without an open stream any more (a few at a time). */
export async function leftWithoutStream(em: EntityManager, live: Liveness, limit = 100) {
  const found = await rows<{ participant_id: number }>(em, LEFT_WITHOUT_STREAM_SQL, [
    live.seenAfter,
    live.closedAfter,
    limit,
  ]);
  return found.map((r) => r.participant_id);
}

export async function hasOpenStream(tx: EntityManager, participantId: number, live: Liveness) {
  const found = await row<{ open: boolean }>(
    tx,
    `select exists (select 1 from room_streams s where s.participant_id = ? and ${LIVE}) as open`,
    [participantId, live.seenAfter, live.closedAfter],
  );
  return found?.open === true;
}

/** The participant and its session as presence events name them. */
export const presenceSubject = (tx: EntityManager, participantId: number) =>
  row<{ session_id: string; code: string; name: string }>(
    tx,
    `select p.session_id, s.code, p.name from participants p join sessions s on s.id = p.session_id where p.id = ?`,
    [participantId],
  );

/** The participants of a session connected now. */
export async function connectedIn(em: EntityManager, sessionId: string): Promise<Set<number>> {
  const found = await rows<{ participant_id: number }>(
    em,
    'select participant_id from room_presence where session_id = ? and connected',
    [sessionId],
  );
  return new Set(found.map((r) => r.participant_id));
}

/** Streams closed or gone long ago are of no use any more. */
export const pruneStreams = (em: EntityManager, before: Date) =>
  run(em, 'delete from room_streams where coalesce(closed_at, seen_at) < ?', [before]);
