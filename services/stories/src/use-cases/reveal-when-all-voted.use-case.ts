import type { EventData } from '@pp/contracts';
import { findStory } from '../db/story.repository.ts';
import { revealIfEveryoneVoted } from './shared/auto-reveal.ts';
import type { StoriesContext } from './shared/context.ts';

/** vote.cast: auto_reveal once the last voting participant has voted. */
export async function revealWhenAllVoted(
  ctx: StoriesContext,
  vote: EventData<'vote.cast'>,
): Promise<boolean> {
  if (vote.auto_reveal === false) return false; // said by the event: no read of the session needed
  return revealIfEveryoneVoted(
    ctx,
    vote.session_id,
    () => findStory(ctx.em, vote.story_id),
    vote.stats.all_voted,
  );
}
