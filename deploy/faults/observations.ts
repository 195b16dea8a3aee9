/** What the fault run saw, read back at the end: the checker's input. */
import type { Operation, RevealedVote } from './ledger.ts';

/** The fields of a room event's data the checks read (the room stream sends more). */
export interface EventData {
  story?: { id?: string };
  story_id?: string;
  participant?: { id?: number };
}

export interface RoomEvent {
  id: string;
  type: string;
  data: EventData;
}

export interface FinalStory {
  id: string;
  status: string;
  finalEstimate: string | null;
  /** The kept votes of a revealed story; null before its reveal. */
  votes: RevealedVote[] | null;
}

export interface RoomState {
  code: string;
  stories: FinalStory[];
  /** The room's whole history, read at the end from its first event on (the reference order). */
  history: RoomEvent[];
}

/** One live room client: what it got, over all its reconnects, in the order it got it. */
export interface ClientView {
  room: string;
  name: string;
  events: RoomEvent[];
  reconnects: number;
}

/** One request the webhook receiver got. */
export interface Delivery {
  webhookId: string;
  type: string;
  storyId?: string;
}

export interface FaultWindow {
  name: string;
  injectedAt: number;
  /** When what it stopped was started again (or, for a kill, when the killed processes were back). */
  restoredAt: number;
  /** What it found while the fault lasted (e.g. what `/readyz` named), for the report. */
  notes: string[];
  /** A dependency every unit needs was gone: `/readyz` must have said not ready, naming it. */
  outage: boolean;
  /** The different not-ready answers `/readyz` gave while it lasted. */
  notReady: string[];
}

export interface Observations {
  operations: Operation[];
  rooms: RoomState[];
  clients: ClientView[];
  deliveries: Delivery[];
  /** Rows left in each unit's outbox; null when it could not be read. */
  outboxes: Record<string, number | null>;
  faults: FaultWindow[];
  /** The gateway's upstream timeout: a refusal must come within it. */
  upstreamTimeoutMs: number;
  /** How soon after a dependency's return the system must serve writes again. */
  recoveryLimitMs: number;
}

export type FindingKind =
  | 'lost-write'
  | 'half-change'
  | 'lost-event'
  | 'duplicate-event'
  | 'out-of-order'
  | 'hang'
  | 'unauthorized'
  | 'bad-refusal'
  | 'slow-recovery'
  | 'readiness'
  | 'outbox';

export interface Finding {
  kind: FindingKind;
  detail: string;
}
