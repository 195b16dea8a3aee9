import { changeQueue } from './shared/change-queue.ts';
import type { StoriesContext } from './shared/context.ts';

/**
 * States a session's round again (the current story, as the stories say) with a new version, after a
 * change whose outcome this service could not learn or commit: both units agree again.
 */
export async function resyncRound(ctx: StoriesContext, sessionId: string): Promise<void> {
  await changeQueue(ctx, { kind: 'system', reason: 'round_sync' }, { sessionId }, () => undefined, {
    kind: 'resync',
  });
}
