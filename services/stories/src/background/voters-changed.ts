import type { EntityManager } from '@pp/db';
import type { EventEnvelope } from '@pp/contracts';
import { revealWhenVotersChanged } from '../use-cases/reveal-when-voters-changed.use-case.ts';
import type { StoriesContext } from '../use-cases/shared/context.ts';

/**
 * The durable an earlier version ran for every participant.* event (participant.left and
 * participant.updated have one each now, which start where it stood; it is removed once they run).
 */
export const RETIRED_PARTICIPANTS_CONSUMER = 'stories-participants';

/**
 * The voters of a session's current round changed (one left, or became an observer): an auto_reveal
 * session may now have everyone's vote. Idempotent by itself (a second reveal of the story is refused
 * and ignored): no processed-events row. (participant.joined can only add a voter.)
 */
export const votersChangedHandler =
  (context: (em: EntityManager) => StoriesContext) =>
  async (event: EventEnvelope<{ session_id: string }>, em: EntityManager) => {
    await revealWhenVotersChanged(context(em), event.data.session_id);
  };
