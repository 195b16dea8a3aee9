import { publicEventTypes } from '@pp/contracts';

/** What a subscription can name: the public event types, or `*` for all of them. */
export const subscribableEvents = publicEventTypes;
export const ALL_EVENTS = '*';

/** The event a test delivery carries (never published on the bus). */
export const TEST_EVENT = 'webhook.test';

/** The body of a generic delivery (Standard Webhooks): the event's type, when it happened, and its data. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

interface RevealedVote {
  participant: { id: number | null; name: string | null };
  value: string;
}

/**
 * The event as subscribers get it. A reveal of a session that does not record voters' names leaves the
 * names out (each vote keeps its value), as the session's own history does.
 */
export function payloadOf(type: string, occurredAt: string, data: Record<string, unknown>): WebhookPayload {
  if (type === 'story.revealed' && data.record_vote_names === false) {
    const story = data.story as { votes: RevealedVote[] };
    const votes = story.votes.map((v) => ({ participant: { id: null, name: null }, value: v.value }));
    return { type, timestamp: occurredAt, data: { ...data, story: { ...story, votes } } };
  }
  return { type, timestamp: occurredAt, data };
}
