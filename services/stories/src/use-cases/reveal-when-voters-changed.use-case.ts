import { storiesOf } from '../db/story.repository.ts';
import { revealIfEveryoneVoted } from './shared/auto-reveal.ts';
import type { StoriesContext } from './shared/context.ts';
import { loadSession } from './shared/load-session.ts';

/**
 * participant.left / participant.updated, or auto-reveal switched on: everyone still voting may have
 * voted now.
 */
export async function revealWhenVotersChanged(ctx: StoriesContext, sessionId: string): Promise<boolean> {
  const session = await loadSession(ctx, sessionId).catch(() => undefined);
  if (!session?.autoReveal) return false;
  return revealIfEveryoneVoted(
    ctx,
    sessionId,
    async () => (await storiesOf(ctx.em, sessionId)).find((s) => s.status === 'voting'),
    { onEvent: true },
  );
}
