import { recentStoryEvents } from '../db/history.repository.ts';
import type { StoriesContext } from './shared/context.ts';

/** For the sessions unit's activity: the session's latest story events, newest first, as they were published. */
export const listStoryHistory = (ctx: StoriesContext, sessionId: string, limit: number) =>
  recentStoryEvents(ctx.em, sessionId, limit);
