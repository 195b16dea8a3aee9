import { BoundedMap } from '@pp/collections';
import { analyse } from '../domain/analytics.ts';
import { votesToShow } from '../domain/vote-names.ts';
import { storiesVersion, storyOutcomes, type StoryOutcome } from '../db/story.repository.ts';
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
const built = new BoundedMap<
  string,
  { version: string; named: boolean; deck: string; names: boolean; analytics: Analytics }
>(16);

const hasNamedVote = (stories: readonly StoryOutcome[]) =>
  stories.some((s) => s.votes?.some((v) => v.participant.name !== null));

/** Estimate distribution, outliers, history and totals of a session, for its owner. */
export async function sessionAnalytics(ctx: StoriesContext, actor: Actor, code: string): Promise<Analytics> {
  const known = await loadSession(ctx, code);
  assertOwner(actor, known);
  const version = await storiesVersion(ctx.em, known.id);
  const kept = built.get(known.id);
  let stories: StoryOutcome[] | undefined;
  let named: boolean;
  if (kept?.version === version) named = kept.named;
  else {
    stories = await storyOutcomes(ctx.em, known.id);
    named = hasNamedVote(stories);
  }
  const session = named ? await currentSession(ctx, known) : known;
  const deck = session.deck.join('\n');
  if (kept?.version === version && kept.deck === deck && kept.names === session.recordVoteNames) {
    built.set(known.id, kept);
    return kept.analytics;
  }
  stories ??= await storyOutcomes(ctx.em, known.id);
  const analytics = analyse(
    session.deck,
    stories.map((s) => ({ ...s, votes: votesToShow(s.votes ?? [], session.recordVoteNames) })),
  );
  built.set(known.id, { version, named, deck, names: session.recordVoteNames, analytics });
  return analytics;
}
