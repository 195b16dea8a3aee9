import { LockMode, type EntityManager } from '@pp/db';
import { Participant } from './entities/index.ts';
import { row, rows, run } from './sql.ts';

export interface ParticipantRow {
  id: number;
  name: string;
  role: string;
}

export interface NewParticipant {
  sessionId: string;
  userId: string | null;
  name: string;
  role: string;
  tokenHash: string;
  at: Date;
}

/**
 * Adds a participant, unless the room already has `max` (observers count). A signed-in user who is
 * already in the room gets the same participant back with the new token hash (its earlier token stops
 * working), full room or not; `joined` tells whether it is new. Undefined when the room is full. Run
 * in a transaction: the session's row stays locked until it commits, so concurrent joins count one
 * after the other and never pass the maximum together.
 */
export async function joinParticipant(em: EntityManager, p: NewParticipant, max: number) {
  // NO KEY UPDATE: joins wait for each other, not for votes and inserts that only reference the row.
  await run(em, 'select 1 from sessions where id = ? for no key update', [p.sessionId]);
  if (p.userId !== null) {
    const again = await row<ParticipantRow>(
      em,
      `update participants set token_hash = ?
        where session_id = ? and user_id = ? and removed_at is null returning id, name, role`,
      [p.tokenHash, p.sessionId, p.userId],
    );
    if (again) return { participant: again, joined: false };
  }
  const saved = await row<ParticipantRow>(
    em,
    `insert into participants (session_id, user_id, name, role, token_hash, joined_at)
     select ?, ?, ?, ?, ?, ?
      where (select count(*) from participants where session_id = ? and removed_at is null) < ?
     returning id, name, role`,
    [p.sessionId, p.userId, p.name, p.role, p.tokenHash, p.at, p.sessionId, max],
  );
  return saved ? { participant: saved, joined: true } : undefined;
}

/** One page of the room's live participants in joining order, and how many there are in all. */
export async function participantsPage(em: EntityManager, sessionId: string, page: number, perPage: number) {
  const [participants, total] = await em.findAndCount(
    Participant,
    { sessionId, removedAt: null },
    { orderBy: { id: 'asc' }, limit: perPage, offset: (page - 1) * perPage },
  );
  return { participants, total };
}

export const listParticipants = (em: EntityManager, sessionId: string) =>
  em.find(Participant, { sessionId, removedAt: null }, { orderBy: { id: 'asc' } });

/** The live participant of a session holding this token (by its hash), if any. */
export const participantByToken = (em: EntityManager, sessionId: string, tokenHash: string) =>
  row<ParticipantRow>(
    em,
    'select id, name, role from participants where session_id = ? and token_hash = ? and removed_at is null',
    [sessionId, tokenHash],
  );

/**
 * A live participant, its row locked for the rest of the transaction (FOR UPDATE): a vote in flight
 * (which holds the voter's row share-locked) commits first, and a later one waits and then finds the
 * row changed. So a change that takes a participant's open votes away sees every vote it cast.
 */
export const lockParticipant = (tx: EntityManager, sessionId: string, id: number) =>
  tx.findOne(Participant, { id, sessionId, removedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });

/** Hands the moderator role over: the other moderators of the session become participants (returned). */
export const demoteOtherModerators = (em: EntityManager, sessionId: string, keepId: number) =>
  rows<Pick<ParticipantRow, 'id' | 'name'>>(
    em,
    `update participants set role = 'participant'
      where session_id = ? and role = 'moderator' and id <> ? and removed_at is null
      returning id, name`,
    [sessionId, keepId],
  );
