import type { Actor, StoriesContext } from './context.ts';
import { loadOwnedStory } from './load-session.ts';

/** One story with everything kept about it, for the session's owner. */
export const getStory = (ctx: StoriesContext, actor: Actor, storyId: string) =>
  loadOwnedStory(ctx, actor, storyId);
