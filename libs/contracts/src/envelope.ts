import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/** Every event on the bus: ids, a type, a version, when, who sent it, and the data consumers need. */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  version: z.number().int().positive(),
  occurred_at: z.iso.datetime({ offset: true }),
  source: z.string(),
  correlation_id: z.string().nullable(),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'data'> & { data: T };

export function makeEvent<T>(
  type: string,
  data: T,
  options: {
    source: string;
    correlationId?: string | null;
    version?: number;
    id?: string;
    occurredAt?: Date;
  },
): EventEnvelope<T> {
  return {
    id: options.id ?? randomUUID(),
    type,
    version: options.version ?? 1,
    occurred_at: (options.occurredAt ?? new Date()).toISOString(),
    source: options.source,
    correlation_id: options.correlationId ?? null,
    data,
  };
}
