import type { EventEnvelope } from '@pp/contracts';
import type { EntityManager } from '@pp/db';
import { pruneRoomEvents, recordRoomMessage } from '../db/room-event.repository.ts';
import { toRoomMessage } from '../domain/room-events.ts';

/** Keeps what the live room showed, in the bus's order, so a reconnecting client can catch up. */
export async function recordRoomEvent(em: EntityManager, event: EventEnvelope): Promise<void> {
  const message = toRoomMessage(event);
  if (message) await recordRoomMessage(em, message, new Date(event.occurred_at));
}

/** Catching up is for short drops: older room history is let go. */
export const forgetOldRoomEvents = (em: EntityManager, now: Date, keepMs: number) =>
  pruneRoomEvents(em, new Date(now.getTime() - keepMs));
