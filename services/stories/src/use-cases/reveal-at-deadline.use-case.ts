import { forgetCountdown } from '../db/countdown.repository.ts';
import type { DueReveal } from '../db/story.repository.ts';
import { notDue } from '../errors.ts';
import type { StoriesContext } from './shared/context.ts';
import { revealStory } from './reveal-story.use-case.ts';

/**
 * The vote-by deadline passed while the story was open, or its round's countdown reached zero: reveal
 * it. Returns whether it did. A countdown is tried once: revealed, or found ended (stopped, or its
 * round ended some other way: found so here, or by the reveal), it is let go, unless it was started
 * again meanwhile.
 */
export async function revealAtDeadline(ctx: StoriesContext, due: DueReveal): Promise<boolean> {
  if (due.reason === 'countdown' && !due.open) {
    await forgetCountdown(ctx.em, due.id, due.revealAt);
    return false;
  }
  try {
    await revealStory(ctx, { kind: 'system', reason: due.reason }, due.id);
    if (due.reason === 'countdown') await forgetCountdown(ctx.em, due.id, due.revealAt);
    return true;
  } catch (err) {
    if (!notDue(err)) throw err;
    if (due.reason === 'countdown') await forgetCountdown(ctx.em, due.id, due.revealAt);
    return false;
  }
}
