import { storiesOf } from '../db/story.repository.ts';
import type { StoriesContext } from './context.ts';
import { loadSession } from './load-session.ts';

/** The session's stories in queue order (the public room view and the export read this). */
export async function listSessionStories(ctx: StoriesContext, code: string) {
  const session = await loadSession(ctx, code);
  const stories = await storiesOf(ctx.em, session.id);
  return { session, stories };
}
