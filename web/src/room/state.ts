import type { Participant, RoomStory, Session, VoteStats } from '../api/types.ts';

/**
 * What a browser knows of a room: the snapshot it read (session, participants, stories) patched by
 * the live events. Who has voted is known only from the `vote.cast` events seen (the API has no
 * list of it); their values only once the story is revealed.
 */
export interface RoomState {
  session: Session;
  /** `connected`: whether they have the room open now, as the read and the presence events say. */
  participants: Array<Participant & { connected?: boolean }>;
  stories: RoomStory[];
  /** Story id -> participants seen voting on it, in this browser. */
  voted: Record<string, number[]>;
  /** Story id -> the latest counts of its round. */
  stats: Record<string, VoteStats>;
  /** How many live events have changed the state; story id -> which of them last changed its counts. */
  seen: number;
  countedAt: Record<string, number>;
  /** Story id -> this browser's own vote, until the story is reset. */
  mine: Record<string, string>;
  /** The story whose results the room shows: the one revealed last. */
  lastRevealedId: string | null;
}

export interface RoomEvent {
  type: string;
  // The event's data, as the live room sends it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}
