import type { EntityManager } from '@pp/db';
import type { Session } from '../../db/entities/index.ts';
import { sessionFactRow, toFacts } from '../../db/session.repository.ts';
import type { AtZero } from '../../db/countdown.repository.ts';
import type { StorySummary } from '../../db/round.repository.ts';

export interface SessionFacts {
  participantsCount: number;
  currentStory: StorySummary | null;
  /** The open round's countdown, if the owner started one. */
  countdown: RoundCountdownView | null;
}

export interface RoundCountdownView {
  story_id: string;
  ends_at: string;
  seconds: number;
  at_zero: AtZero;
}

/** What a session record shows beside its own fields: how many are in the room, and the current story. */
export async function factsOf(em: EntityManager, session: Session): Promise<SessionFacts> {
  const found = await sessionFactRow(em, session.id);
  return found ? toFacts(found) : { participantsCount: 0, currentStory: null, countdown: null };
}
