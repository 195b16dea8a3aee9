import type { EventData } from '@pp/contracts';
import { keepCountdown } from '../db/countdown.repository.ts';
import type { StoriesContext } from './shared/context.ts';

/**
 * countdown.started: the deadline task reveals the round at zero when the countdown says so; one that
 * closes the round to votes reveals nothing (and replaces one that would have).
 */
export async function keepStartedCountdown(
  ctx: Pick<StoriesContext, 'em'>,
  data: EventData<'countdown.started'>,
  occurredAt: string,
) {
  const { countdown } = data;
  await keepCountdown(ctx.em, {
    storyId: countdown.story_id,
    sessionId: data.session_id,
    revealAt: countdown.at_zero === 'reveal' ? new Date(countdown.ends_at) : null,
    setAt: new Date(occurredAt),
  });
}

/** countdown.ended: the owner stopped it; nothing is revealed at zero. */
export async function keepEndedCountdown(
  ctx: Pick<StoriesContext, 'em'>,
  data: EventData<'countdown.ended'>,
  occurredAt: string,
) {
  await keepCountdown(ctx.em, {
    storyId: data.story_id,
    sessionId: data.session_id,
    revealAt: null,
    setAt: new Date(occurredAt),
  });
}
