import { notDue } from '../errors.ts';
import type { StoriesContext } from './shared/context.ts';
import { revealStory } from './reveal-story.use-case.ts';

/** The vote-by deadline passed while the story was open: reveal it. Returns whether it did. */
export async function revealAtDeadline(ctx: StoriesContext, storyId: string): Promise<boolean> {
  try {
    await revealStory(ctx, { kind: 'system', reason: 'vote_by_deadline' }, storyId);
    return true;
  } catch (err) {
    if (notDue(err)) return false;
    throw err;
  }
}
