import { publicEventTypes, type EventType } from '@pp/contracts';
import { eventBus, filterForType, subjectsOfType } from './bus.ts';

/**
 * What one unit does on the broker: the events it announces (its outbox), the subjects it reads
 * (its consumers, `<type>` or a wildcard such as `story.>`; a type some of whose events go out
 * qualified, such as vote.cast, is read through its family's filter: see `filterForType`), and its
 * durable consumers, whose dead letters it publishes (`<prefix>-dlq.<durable>.<type>`).
 */
export interface BrokerUser {
  publishes: readonly EventType[];
  consumes: readonly string[];
  durables: readonly string[];
  /** Whether it uses JetStream (streams, consumers, acks); the gateway only listens. */
  jetstream: boolean;
}

/**
 * Each unit's user on the broker, the one place the broker's permissions are kept: `npm start`,
 * docker compose and Kubernetes render their NATS authorization from it. A unit may publish only its
 * own events, so that no other unit (and nobody who reaches the broker without its password) can
 * forge them: the read models take ownership (`owner_id`) from `session.*` events.
 */
export const brokerUsers = {
  identity: { publishes: ['user.created', 'token.revoked'], consumes: [], durables: [], jetstream: true },
  sessions: {
    publishes: [
      'session.created',
      'session.updated',
      'session.archived',
      'session.unarchived',
      'session.discarded',
      'participant.joined',
      'participant.left',
      'participant.updated',
      'participant.presence',
      'vote.cast',
      'countdown.started',
      'countdown.ended',
    ],
    // The rooms follow the whole bus (an ordered consumer, delivered to an inbox).
    consumes: ['>'],
    durables: [],
    jetstream: true,
  },
  stories: {
    publishes: [
      'story.created',
      'story.revealed',
      'story.reset',
      'story.activated',
      'story.updated',
      'story.deleted',
    ],
    // vote.cast only of sessions that reveal by themselves (`vote.cast.auto`); of the participants'
    // events, only those that can complete a round (a voter left, or became an observer).
    consumes: ['session.>', 'participant.left', 'participant.updated', 'vote.cast.auto', 'countdown.>'],
    durables: [
      'stories-sessions',
      'stories-participant-left',
      'stories-participant-updated',
      'stories-votes',
      'stories-countdowns',
    ],
    jetstream: true,
  },
  // The history of revealed stories: a durable per type it handles (ai-story-revealed, ...).
  ai: {
    publishes: [],
    consumes: ['story.revealed', 'story.reset', 'story.deleted', 'story.updated'],
    durables: ['ai-story-revealed', 'ai-story-reset', 'ai-story-deleted', 'ai-story-updated'],
    jetstream: true,
  },
  integrations: {
    publishes: ['import.completed', 'estimates.synced'],
    consumes: ['story.revealed'],
    durables: ['integrations-story-revealed'],
    jetstream: true,
  },
  // The public events some webhook wants: a durable per type (webhooks-vote-cast, ...), there while wanted.
  webhooks: {
    publishes: [],
    consumes: publicEventTypes,
    durables: publicEventTypes.map((type) => `webhooks-${type.replace(/\./g, '-')}`),
    jetstream: true,
  },
  // Drops revoked tokens from its cache: a plain subscription, nothing published.
  gateway: { publishes: [], consumes: ['token.revoked'], durables: [], jetstream: false },
} as const satisfies Record<string, BrokerUser>;

export type BrokerUserName = keyof typeof brokerUsers;
export const brokerUserNames = Object.keys(brokerUsers) as BrokerUserName[];

/** The environment variable holding a unit's broker password in compose and Kubernetes, e.g. SESSIONS_NATS_PASSWORD. */
export const natsPasswordVariable = (user: BrokerUserName) => `${user.toUpperCase()}_NATS_PASSWORD`;

/**
 * What JetStream needs of a client beyond its own subjects: its API (streams, consumers, pulls), acks
 * and flow control replies, and replies to the client's requests (JetStream answers on an inbox).
 */
const JETSTREAM_PUBLISH = ['$JS.API.>', '$JS.ACK.>', '$JS.FC.>'];
const INBOX = '_INBOX.>';

/** The subjects a unit may publish and subscribe to on a bus with the given prefix. */
export function brokerPermissions(
  user: BrokerUserName,
  prefix = 'pp',
): { publish: string[]; subscribe: string[] } {
  const u: BrokerUser = brokerUsers[user];
  const bus = eventBus(prefix);
  const publish = [
    ...u.publishes.flatMap((type) => subjectsOfType(bus, type)),
    ...u.durables.map((durable) => `${bus.deadLetterPrefix}.${durable}.>`),
    ...(u.jetstream ? [...JETSTREAM_PUBLISH, INBOX] : []),
  ];
  const subscribe = [...u.consumes.map((s) => filterForType(bus, s)), INBOX];
  return { publish, subscribe };
}
