import type { EntityManager } from '@pp/db';
import type { Session } from '../db/entities/index.ts';
import { participantCounts } from '../db/session.repository.ts';
import { findCurrentStories, type StorySummary } from '../db/story.repository.ts';

export interface SessionFacts {
  participantsCount: number;
  currentStory: StorySummary | null;
}

/** What a session record shows beside its own fields: how many are in the room, and the current story. */
export async function sessionFacts(
  em: EntityManager,
  sessions: Session[],
): Promise<Map<string, SessionFacts>> {
  const ids = sessions.map((s) => s.id);
  const counts = await participantCounts(em, ids);
  const stories = await findCurrentStories(em, ids);
  return new Map(
    ids.map((id) => [id, { participantsCount: counts.get(id) ?? 0, currentStory: stories.get(id) ?? null }]),
  );
}

export async function factsOf(em: EntityManager, session: Session): Promise<SessionFacts> {
  return (await sessionFacts(em, [session])).get(session.id)!;
}
