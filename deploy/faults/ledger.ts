/**
 * The ledger: every operation the traffic sent, what it asked and what the answer promised. The checker
 * compares it with what the system holds at the end.
 */
import type { Answer, Outcome } from './client.ts';

export type OperationKind = 'join' | 'vote' | 'add-story' | 'activate' | 'reveal' | 'read';

export interface RevealedVote {
  participantId: number;
  value: string;
}

export interface Operation {
  kind: OperationKind;
  /** The session code of the room it was sent for. */
  room: string;
  outcome: Outcome;
  status: number;
  startedAt: number;
  endedAt: number;
  /** A refusal (5xx) carried the error envelope. */
  enveloped: boolean;
  /** The error envelope's code of a non-2xx answer. */
  code?: string;
  /** A bearer token known to be valid went with it: a 401 for it is a failure. */
  validToken: boolean;
  participantId?: number;
  /** A vote's value. */
  value?: string;
  /** The story it named, or, for a vote, the story the answer says it counted on. */
  storyId?: string;
  /** A reveal's answer: the final estimate and the sealed votes. */
  finalEstimate?: string | null;
  votes?: RevealedVote[];
}

/** What the traffic knows before it sends: the rest comes from the answer. */
export type Intent = Pick<Operation, 'kind' | 'room' | 'validToken' | 'participantId' | 'value' | 'storyId'>;

export class Ledger {
  readonly operations: Operation[] = [];

  /** Notes an answer (with what the caller read from a 2xx) and returns the operation. */
  record(intent: Intent, answer: Answer, promised: Partial<Operation> = {}): Operation {
    const op: Operation = {
      ...intent,
      outcome: answer.outcome,
      status: answer.status,
      startedAt: answer.startedAt,
      endedAt: answer.endedAt,
      enveloped: answer.enveloped,
      code: answer.outcome === 'ok' ? undefined : answer.body?.error?.code,
      ...(answer.outcome === 'ok' ? promised : {}),
    };
    this.operations.push(op);
    return op;
  }
}
