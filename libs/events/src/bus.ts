/**
 * Where events go: subjects `<prefix>.<type>` in one stream, dead letters in another.
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
export const subjectFor = (bus: EventBus, type: string) => `${bus.prefix}.${type}`;
export const deadLetterSubjectFor = (bus: EventBus, consumer: string, type: string) =>
  `${bus.deadLetterPrefix}.${consumer}.${type}`;
