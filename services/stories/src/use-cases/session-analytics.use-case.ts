import { BoundedMap } from '@pp/collections';
import { analyse } from '../domain/analytics.ts';
import { votesToShow } from '../domain/vote-names.ts';
import { storiesVersion, storyOutcomes } from '../db/story.repository.ts';
import type { Actor, StoriesContext } from './shared/context.ts';
import { assertOwner, currentSession, loadSession } from './shared/load-session.ts';

type Analytics = ReturnType<typeof analyse>;

/**
 * Analytics built in this process, by session, with what they were built from: the stories' version
 * (read on every request, so a change made through any replica shows at once), the deck and whether
 * names are shown. A session of 500 revealed stories with 20 votes each makes 1.5 MB of analytics:
 * building it again for every look at an unchanged session would cost more than everything else the
 * request does. The sessions asked most recently stay.
 */
const built = new BoundedMap<string, { version: string; deck: string; names: boolean; analytics: Analytics }>(
  16,
);

/**
 * Estimate distribution, outliers, history and totals of a session, for its owner. The deck and
 * record_vote_names are the sessions unit's now: the read model may be a moment behind a change the
 * owner just made.
 */
export async function sessionAnalytics(ctx: StoriesContext, actor: Actor, code: string): Promise<Analytics> {
  const known = await loadSession(ctx, code);
  assertOwner(actor, known);
  const session = await currentSession(ctx, known);
  const version = await storiesVersion(ctx.em, known.id);
  const deck = session.deck.join('\n');
  const kept = built.get(known.id);
  if (kept?.version === version && kept.deck === deck && kept.names === session.recordVoteNames) {
    built.set(known.id, kept);
    return kept.analytics;
  }
  const stories = await storyOutcomes(ctx.em, known.id);
  const analytics = analyse(
    session.deck,
    stories.map((s) => ({ ...s, votes: votesToShow(s.votes ?? [], session.recordVoteNames) })),
  );
  built.set(known.id, { version, deck, names: session.recordVoteNames, analytics });
  return analytics;
}
