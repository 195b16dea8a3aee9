import type { EntityManager } from '@pp/db';
import type { EventHandler } from '@pp/events';
import type { ConsumerSpec } from '@pp/runtime';
import { revealWhenVotersChanged } from '../use-cases/reveal-when-voters-changed.use-case.ts';
import type { StoriesContext } from '../use-cases/shared/context.ts';

/**
 * The durable an earlier version ran for every participant.* event (the consumers below took over
 * from it, where it stood; it is removed once they run).
 */
export const RETIRED_PARTICIPANTS_CONSUMER = 'stories-participants';

/** The changes of a room's voters that can complete a round: one left, or became an observer. */
const VOTERS_CHANGED = ['participant.left', 'participant.updated'] as const;

/**
 * participant.left and participant.updated: the voters of the current round changed, so an
 * auto_reveal session may now have everyone's vote. One durable per type (NATS 2.9 takes one subject
 * filter per consumer), so the unit never receives the joins and presence changes of the rooms, which
 * cannot complete a round. Idempotent by itself (a second reveal of the story is refused and
 * ignored): no processed-events row.
 */
export function participantEventsConsumers(
  prefix: string,
  context: (em: EntityManager) => StoriesContext,
): ConsumerSpec[] {
  const handler: EventHandler<(typeof VOTERS_CHANGED)[number]> = async (event, em) => {
    await revealWhenVotersChanged(context(em), event.data.session_id);
  };
  return VOTERS_CHANGED.map((type) => ({
    durable: `stories-${type.replace('.', '-')}`,
    filterSubject: `${prefix}.${type}`,
    handlers: { [type]: handler },
    concurrency: 2,
    idempotent: true,
    takesOverFrom: [RETIRED_PARTICIPANTS_CONSUMER],
  }));
}
