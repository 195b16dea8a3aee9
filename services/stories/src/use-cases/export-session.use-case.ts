import type { ExportedStory } from '../domain/export-rows.ts';
import { votesToShow } from '../domain/vote-names.ts';
import { storiesOf } from '../db/story.repository.ts';
import type { Actor, StoriesContext } from './shared/context.ts';
import { assertOwner, currentSession, loadSession } from './shared/load-session.ts';

/**
 * Every story of the session with its status, final estimate and votes (named per record_vote_names),
 * and the session's name: both as the sessions unit has them now (the read model may be a moment
 * behind a rename or a change of record_vote_names the owner just made).
 */
export async function exportSession(ctx: StoriesContext, actor: Actor, code: string) {
  const known = await loadSession(ctx, code);
  assertOwner(actor, known);
  const stories = await storiesOf(ctx.em, known.id);
  const session = await currentSession(ctx, known);
  const exported: ExportedStory[] = stories.map((s) => ({
    id: s.id,
    position: s.position,
    title: s.title,
    description: s.description,
    acceptance_criteria: s.acceptanceCriteria,
    status: s.status,
    final_estimate: s.finalEstimate ?? null,
    revealed_at: s.revealedAt ? s.revealedAt.toISOString() : null,
    votes: s.status === 'revealed' ? votesToShow(s.votes ?? [], session.recordVoteNames) : [],
  }));
  return { session: { id: session.id, code: session.code, name: session.name }, stories: exported };
}
