import { findStory, storiesOf } from '../db/story.repository.ts';
import { revealIfEveryoneVoted } from './shared/auto-reveal.ts';
import type { StoriesContext } from './shared/context.ts';

/**
 * The sessions unit says a round may just have become complete (the last vote, a voter removed or
 * made an observer, auto-reveal switched on), before it answers its client: the story (the one named,
 * or else the current one) is revealed now if auto-reveal is on and everyone voted, which the sessions
 * unit checks again on its own data as it seals the round. The events that say the same arrive later
 * and find it revealed.
 */
export async function revealIfComplete(ctx: StoriesContext, sessionId: string, storyId?: string) {
  const current = storyId
    ? () => findStory(ctx.em, storyId)
    : async () => (await storiesOf(ctx.em, sessionId)).find((s) => s.status === 'voting');
  return revealIfEveryoneVoted(ctx, sessionId, current, { saidAllVoted: true });
}
