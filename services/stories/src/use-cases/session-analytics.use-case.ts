import { analyse } from '../domain/analytics.ts';
import { votesToShow } from '../domain/vote-names.ts';
import { storiesOf } from '../db/story.repository.ts';
import type { Actor, StoriesContext } from './context.ts';
import { assertOwner, loadSession } from './load-session.ts';

/** Estimate distribution, outliers, history and totals of a session, for its owner. */
export async function sessionAnalytics(ctx: StoriesContext, actor: Actor, code: string) {
  const session = await loadSession(ctx, code);
  assertOwner(actor, session);
  const stories = await storiesOf(ctx.em, session.id);
  return analyse(
    session.deck,
    stories.map((s) => ({
      id: s.id,
      title: s.title,
      status: s.status,
      final_estimate: s.finalEstimate ?? null,
      revealed_at: s.revealedAt ? s.revealedAt.toISOString() : null,
      votes: votesToShow(s.votes ?? [], session.recordVoteNames),
    })),
  );
}
