import type { Answer, Schemas } from '@pp/api-client';

/**
 * The API's shapes the room reads, by the names the room uses: each is the generated schema of the
 * public API (libs/api-client), never a copy of it.
 */

export type User = Schemas['User'];
export type StorySummary = Schemas['StorySummary'];
export type Participant = Schemas['Participant'];
export type VoteStats = Schemas['VoteStats'];
export type RevealedVote = Schemas['RevealedVote'];
/** The room's view of a story: votes only once revealed. */
export type RoomStory = Schemas['RoomStory'];
export type Analytics = Schemas['SessionAnalytics'];
/** An issue of a CSV (or a tracker) as an import previews it. */
export type ExternalIssue = Schemas['ExternalIssue'];
/** The story open for votes when the room was read: who has voted (never what) and the counts. */
export type OpenRound = Schemas['OpenRound'];

/** What anyone with the code sees; the owner gets the full record (`owner_id` and the settings). */
export type Session = Schemas['PublicSession'] & Partial<Schemas['Session']>;
export type VotingSystem = Session['voting_system'];
export type SessionStatus = Session['status'];
export type StoryStatus = StorySummary['status'];
export type Role = Participant['role'];

/** A room in one read (GET /sessions/{code}/room); `stories` null when the stories unit did not answer. */
export type RoomRead = Answer<'/sessions/{code}/room', 'get'>;

/** Where a browser sits in a room: kept so that a reload keeps the seat (the token is the credential). */
export interface Seat {
  id: number;
  token: string;
}
