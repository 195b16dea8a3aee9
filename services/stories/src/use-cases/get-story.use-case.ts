import type { Actor, StoriesContext } from './shared/context.ts';
import { loadOwnedStory, withCurrentNames } from './shared/load-session.ts';

/** One story with everything kept about it, for the session's owner. */
export async function getStory(ctx: StoriesContext, actor: Actor, storyId: string) {
  const { story, session } = await loadOwnedStory(ctx, actor, storyId);
  return { story, session: await withCurrentNames(ctx, session, [story]) };
}
