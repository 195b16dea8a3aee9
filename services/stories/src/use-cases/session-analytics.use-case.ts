import { analyse } from '../domain/analytics.ts';
import { votesToShow } from '../domain/vote-names.ts';
import { storiesOf } from '../db/story.repository.ts';
import type { Actor, StoriesContext } from './shared/context.ts';
import { assertOwner, loadSession, withCurrentNames } from './shared/load-session.ts';

/** Estimate distribution, outliers, history and totals of a session, for its owner. */
export async function sessionAnalytics(ctx: StoriesContext, actor: Actor, code: string) {
  const known = await loadSession(ctx, code);
  assertOwner(actor, known);
  const stories = await storiesOf(ctx.em, known.id);
  const session = await withCurrentNames(ctx, known, stories);
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
