import type { Story } from '../../db/entities/index.ts';
import { notDue } from '../../errors.ts';
import type { StoriesContext } from './context.ts';
import { revealStory } from '../reveal-story.use-case.ts';

/**
 * When the story is still the current one and every voting participant has voted, reveal it (the
 * same reveal as the owner's, sealed only if the sessions unit finds auto-reveal on and everyone
 * voted). Returns whether it did. On an event (`onEvent`), the reveal gives way to a change of the
 * session under way: the sessions unit asks the same reveal of this unit before it answers, perhaps
 * of another replica, and the event is its fallback (handed back, it finds the story revealed).
 */
export async function revealIfEveryoneVoted(
  ctx: StoriesContext,
  sessionId: string,
  findCurrent: () => Promise<Story | null | undefined>,
  { saidAllVoted = false, onEvent = false }: { saidAllVoted?: boolean; onEvent?: boolean } = {},
): Promise<boolean> {
  try {
    const story = await findCurrent();
    if (!story || story.status !== 'voting' || story.sessionId !== sessionId) return false;
    // Votes commit side by side, so the count an event carries may miss one committed at the same
    // moment; every event comes after its commit, so asking now sees the last vote too.
    const allVoted = saidAllVoted || (await ctx.sessions.stats(sessionId, story.id)).all_voted;
    if (!allVoted) return false;
    await revealStory(ctx, { kind: 'system', reason: 'auto_reveal' }, story.id, { yields: onEvent });
    return true;
  } catch (err) {
    if (notDue(err)) return false;
    throw err;
  }
}
