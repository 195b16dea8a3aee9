import { storiesOf } from '../db/story.repository.ts';
import type { StoriesContext } from './shared/context.ts';
import { loadSession, withCurrentNames } from './shared/load-session.ts';

/** The session's stories in queue order (the public room view). */
export async function listSessionStories(ctx: StoriesContext, code: string) {
  const session = await loadSession(ctx, code);
  const stories = await storiesOf(ctx.em, session.id);
  return { session: await withCurrentNames(ctx, session, stories), stories };
}
