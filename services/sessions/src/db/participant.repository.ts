import { LockMode, type EntityManager } from '@pp/db';
import { Participant } from './entities/index.ts';
import { row, rows } from './sql.ts';

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
 * Adds a participant. A signed-in user who is already in the room gets the same participant back
 * with the new token hash (its earlier token stops working); `joined` tells whether it is new.
 */
export async function joinParticipant(em: EntityManager, p: NewParticipant) {
  const params = [p.sessionId, p.userId, p.name, p.role, p.tokenHash, p.at];
  const saved =
    p.userId === null
      ? await row<ParticipantRow & { joined: boolean }>(
          em,
          `insert into participants (session_id, user_id, name, role, token_hash, joined_at)
           values (?, ?, ?, ?, ?, ?) returning id, name, role, true as joined`,
          params,
        )
      : await row<ParticipantRow & { joined: boolean }>(
          em,
          `insert into participants (session_id, user_id, name, role, token_hash, joined_at)
           values (?, ?, ?, ?, ?, ?)
           on conflict (session_id, user_id) where user_id is not null and removed_at is null
           do update set token_hash = excluded.token_hash
           returning id, name, role, (xmax = 0) as joined`,
          params,
        );
  const { joined, ...participant } = saved!;
  return { participant, joined };
}

export const listParticipants = (em: EntityManager, sessionId: string) =>
  em.find(Participant, { sessionId, removedAt: null }, { orderBy: { id: 'asc' } });

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
