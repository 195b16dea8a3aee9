import type { EntityManager } from '@pp/db';
import type { Session } from '../../db/entities/index.ts';
import { sessionFactRow, toFacts } from '../../db/session.repository.ts';
import type { StorySummary } from '../../db/round.repository.ts';

export interface SessionFacts {
  participantsCount: number;
  currentStory: StorySummary | null;
}

/** What a session record shows beside its own fields: how many are in the room, and the current story. */
export async function factsOf(em: EntityManager, session: Session): Promise<SessionFacts> {
  const found = await sessionFactRow(em, session.id);
  return found ? toFacts(found) : { participantsCount: 0, currentStory: null };
}
