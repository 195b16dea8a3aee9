import { z } from 'zod';
import { SESSION_CODE_PATTERN } from '@pp/contracts';
import { webhookKinds } from '../domain/chat-formats.ts';
import { ALL_EVENTS, subscribableEvents } from '../domain/payload.ts';

/** Request and answer shapes of the webhooks API (payloads are the resource-named keys of the envelope). */
const isoDate = z.iso.datetime({ offset: true });

export const webhookParams = z.object({ id: z.string().max(64).meta({ description: 'Webhook id (UUID)' }) });
export const deliveryParams = webhookParams.extend({
  delivery: z.string().max(64).meta({ description: 'Delivery id (UUID), also its `webhook-id` header' }),
});

const url = z
  .string()
  .trim()
  .min(1)
  .max(2_048)
  .meta({
    description:
      'Where deliveries are POSTed: an https URL (a Slack, Teams or Discord incoming-webhook URL for those kinds) ' +
      'whose host resolves to public addresses only; checked again at every delivery',
    example: 'https://example.com/hooks/planning-poker',
  });
const events = z
  .array(z.enum([...subscribableEvents, ALL_EVENTS]))
  .min(1)
  .max(subscribableEvents.length + 1)
  .meta({ description: 'Event types to receive, or `["*"]` for all of them' });
const kind = z.enum(webhookKinds).meta({
  description:
    "`generic`: the Standard Webhooks JSON body, signed; `slack`, `teams`, `discord`: a message in that tool's own format",
});

/** Fields not listed (id, secret, owner_id, enabled, ...) are refused with 422. */
export const createWebhookBody = z
  .strictObject({
    url,
    events,
    kind: kind.default('generic'),
    session_code: z
      .string()
      .regex(SESSION_CODE_PATTERN, 'must be a 6-character session code')
      .optional()
      .meta({ description: 'Only events of this session (one of yours); all of your sessions without it' }),
  })
  .meta({ id: 'CreateWebhookRequest' });

export const updateWebhookBody = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    enabled: z.boolean().optional().meta({
      description:
        '`true` enables a disabled webhook again (its failure streak is forgotten); `false` disables it',
    }),
    rotate_secret: z.boolean().optional().meta({
      description:
        '`true`: a new secret, shown once in this answer; the previous one signs beside it for 24 hours',
    }),
  })
  .meta({ id: 'UpdateWebhookRequest' });

export const webhook = z
  .object({
    id: z.uuid(),
    url: z.string(),
    kind: z.enum(webhookKinds),
    events: z.array(z.string()),
    session_code: z
      .string()
      .nullable()
      .meta({ description: 'The one session it follows; null for all of yours' }),
    enabled: z.boolean(),
    disabled_reason: z
      .string()
      .nullable()
      .meta({ description: 'Why it is disabled: its owner, a 410 from the endpoint, or 5 days of failures' }),
    disabled_at: isoDate.nullable(),
    failing_since: isoDate
      .nullable()
      .meta({ description: 'Since when every attempt has failed; null when healthy' }),
    previous_secret_expires_at: isoDate
      .nullable()
      .meta({ description: 'Until then the previous secret signs too (after a rotation)' }),
    created_at: isoDate,
    updated_at: isoDate,
  })
  .meta({ id: 'Webhook' });

export const webhookWithSecret = webhook
  .extend({
    secret: z.string().meta({
      description: 'The signing secret (`whsec_` + base64): shown here only, keep it',
      example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }),
  })
  .meta({ id: 'WebhookWithSecret' });

export const attempt = z
  .object({
    number: z.number().int(),
    manual: z.boolean().meta({ description: 'Asked for with redeliver' }),
    attempted_at: isoDate,
    status_code: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The receiver's status; null without an answer" }),
    latency_ms: z.number().int(),
    response_excerpt: z.string().nullable().meta({ description: "The answer's first 1,024 bytes" }),
    error: z
      .string()
      .nullable()
      .meta({ description: 'Why there was no usable answer (timeout, refused address...)' }),
  })
  .meta({ id: 'DeliveryAttempt' });

export const delivery = z
  .object({
    id: z.uuid().meta({ description: 'Also the `webhook-id` header of every attempt' }),
    event_id: z.uuid(),
    event_type: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempt_count: z.number().int(),
    next_attempt_at: isoDate.nullable().meta({ description: 'When it is tried next (pending only)' }),
    last_attempt_at: isoDate.nullable(),
    last_status_code: z.number().int().nullable(),
    created_at: isoDate,
    payload: z
      .object({ type: z.string(), timestamp: isoDate, data: z.record(z.string(), z.unknown()) })
      .meta({ description: 'The generic body (chat kinds get it as a message)' }),
    attempts: z.array(attempt),
  })
  .meta({ id: 'Delivery' });
