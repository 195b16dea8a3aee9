import type { EntityManager } from '@pp/db';
import type { Session } from '../../db/entities/index.ts';
import { sessionFactRows, toFacts } from '../../db/session.repository.ts';
import type { StorySummary } from '../../db/round.repository.ts';

export interface SessionFacts {
  participantsCount: number;
  currentStory: StorySummary | null;
}

/** What a session record shows beside its own fields: how many are in the room, and the current story. */
export async function sessionFacts(
  em: EntityManager,
  sessions: Session[],
): Promise<Map<string, SessionFacts>> {
  const found = await sessionFactRows(
    em,
    sessions.map((s) => s.id),
  );
  const facts = new Map<string, SessionFacts>();
  for (const r of found) facts.set(r.session_id, toFacts(r));
  for (const s of sessions)
    if (!facts.has(s.id)) facts.set(s.id, { participantsCount: 0, currentStory: null });
  return facts;
}

export async function factsOf(em: EntityManager, session: Session): Promise<SessionFacts> {
  return (await sessionFacts(em, [session])).get(session.id)!;
}
