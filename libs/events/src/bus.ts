/**
 * Where events go: subjects `<prefix>.<type>` (some with a qualifier: see `subjectFor`) in one stream,
 * dead letters in another.
 * The default is the platform's `pp.*`; tests use their own prefix so they never see each other's events.
 */
export interface EventBus {
  prefix: string;
  stream: string;
  deadLetterPrefix: string;
  deadLetterStream: string;
}

export function eventBus(prefix = 'pp'): EventBus {
  const upper = prefix.toUpperCase().replace(/[^A-Z0-9]/g, '_');
  return {
    prefix,
    stream: `${upper}_EVENTS`,
    deadLetterPrefix: `${prefix}-dlq`,
    deadLetterStream: `${upper}_DEAD_LETTERS`,
  };
}

export const defaultBus = eventBus();

/**
 * Events of a type that go out under a longer subject when their data says so, so that a consumer
 * can take only those: a `vote.cast` of a session that reveals by itself once everyone has voted is
 * `<prefix>.vote.cast.auto` (the unit that does that reveal takes only these; every other unit takes
 * every vote.cast), any other `<prefix>.vote.cast`. One filter takes both (`filterForType`): the
 * type's family, `<prefix>.vote.>` (a consumer lets go unread an event of a type it does not take).
 */
const QUALIFIED: ReadonlyMap<string, { qualifier: string; applies: (data: unknown) => boolean }> = new Map([
  [
    'vote.cast',
    {
      qualifier: 'auto',
      applies: (data: unknown) => (data as { auto_reveal?: unknown } | null)?.auto_reveal === true,
    },
  ],
]);

/** The subject of `type`, with one more token (a qualifier, or `>` for a family) when given. */
const subjectOf = (bus: Pick<EventBus, 'prefix'>, type: string, last?: string) =>
  last === undefined ? `${bus.prefix}.${type}` : `${bus.prefix}.${type}.${last}`;

/** The subject of an event of `type` whose data is `data` (no data: the type's plain subject). */
export function subjectFor(bus: Pick<EventBus, 'prefix'>, type: string, data?: unknown): string {
  const qualified = QUALIFIED.get(type);
  return subjectOf(bus, type, qualified?.applies(data) ? qualified.qualifier : undefined);
}

/** The event type of a subject of the bus (its qualifier, if any, left out). */
export function typeOfSubject(bus: Pick<EventBus, 'prefix'>, subject: string): string {
  const type = subject.slice(bus.prefix.length + 1);
  const dot = type.lastIndexOf('.');
  const shorter = dot > 0 ? type.slice(0, dot) : undefined;
  return shorter && QUALIFIED.get(shorter)?.qualifier === type.slice(dot + 1) ? shorter : type;
}

/**
 * One subject filter (NATS 2.9 takes one per consumer) that takes every event of `type`: its subject,
 * or for a type some of whose events are qualified, the type's family (`<prefix>.vote.>`, whose only
 * type is vote.cast).
 */
export function filterForType(bus: Pick<EventBus, 'prefix'>, type: string): string {
  return QUALIFIED.has(type) ? subjectOf(bus, type.split('.')[0]!, '>') : subjectOf(bus, type);
}

/** The subjects an event of `type` may go out under (the broker's permission to publish it). */
export function subjectsOfType(bus: Pick<EventBus, 'prefix'>, type: string): string[] {
  const qualified = QUALIFIED.get(type);
  return qualified
    ? [subjectOf(bus, type), subjectOf(bus, type, qualified.qualifier)]
    : [subjectOf(bus, type)];
}

export const deadLetterSubjectFor = (bus: EventBus, consumer: string, type: string) =>
  `${bus.deadLetterPrefix}.${consumer}.${type}`;
