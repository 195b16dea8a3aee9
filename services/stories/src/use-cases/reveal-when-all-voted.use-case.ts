import type { EventData } from '@pp/contracts';
import { findStory } from '../db/story.repository.ts';
import { revealIfEveryoneVoted } from './shared/auto-reveal.ts';
import type { StoriesContext } from './shared/context.ts';

/**
 * vote.cast of a session that reveals by itself (only those are delivered: `vote.cast.auto`):
 * auto_reveal once the last voting participant has voted. The sessions unit checks at the seal that
 * the session still reveals by itself.
 */
export async function revealWhenAllVoted(
  ctx: StoriesContext,
  vote: EventData<'vote.cast'>,
): Promise<boolean> {
  return revealIfEveryoneVoted(ctx, vote.session_id, () => findStory(ctx.em, vote.story_id), {
    saidAllVoted: vote.stats.all_voted,
    onEvent: true,
  });
}
