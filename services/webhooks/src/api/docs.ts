import { z } from 'zod';
import { pageMetaSchema, pageQuery, type UnitDocs } from '@pp/http';
import {
  createWebhookBody,
  delivery,
  deliveryParams,
  updateWebhookBody,
  webhook,
  webhookParams,
  webhookWithSecret,
} from './schemas.ts';

const NOT_YOURS = { 403: { description: "Another account's webhook (`forbidden`)" } };
const NOT_FOUND = { 404: { description: 'No webhook has this id (`webhook_not_found`)' }, ...NOT_YOURS };
const DELIVERY_NOT_FOUND = {
  404: {
    description: 'No such webhook (`webhook_not_found`) or delivery of it (`delivery_not_found`)',
  },
  ...NOT_YOURS,
};
const INVALID = {
  422: {
    description:
      'Invalid fields (`validation_failed`): a URL the outbound guard refuses names `url` (plain http, a host ' +
      'resolving to a private, loopback, link-local or metadata address: the message names the host given, never the address it resolved to); `session_code` not one of your sessions',
  },
};
const SESSIONS_DOWN = {
  503: { description: 'The sessions service did not answer (`sessions_unavailable`)' },
};

const DELIVERY_RULES =
  'Deliveries are POST requests with a JSON body. **generic**: Standard Webhooks: the body is `{type, timestamp, data}` ' +
  '(`data` as the event carries it; a reveal in a session that does not record names has no voter names), with the ' +
  'headers `webhook-id` (the delivery id, the same on every attempt: use it to drop duplicates), `webhook-timestamp` ' +
  '(Unix seconds of the attempt) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` ' +
  'keyed with the base64-decoded part of the secret after `whsec_`; during a rotation, two space-separated signatures). ' +
  '**slack**: `{text, blocks}`; **teams**: an Adaptive Card message; **discord**: `{content, embeds, allowed_mentions: {parse: []}}` ' +
  '(no mention pings); a reveal names the story, the final estimate and, when the session records names, who voted what. ' +
  'Only a 2xx within 15 s is success; redirects are not followed. A failed delivery is retried after about 5 s, 5 min, ' +
  '30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (±20 % jitter; a longer `Retry-After` on a 429 or 503 is honoured, up to a day): ' +
  'ten attempts over about three days, at least once, in no guaranteed order. A 410 disables the webhook at once; so do ' +
  '5 days in which every attempt failed (`disabled_reason` says which); its owner can enable it again. An endpoint failing ' +
  'most of 10 attempts in 10 s rests 30 s before it is tried again. Events: `session.created`, `session.updated`, ' +
  '`session.archived`, `session.unarchived`, `participant.joined`, `vote.cast` (never the value), `story.created`, ' +
  '`story.revealed`, `story.reset`, `import.completed`, `estimates.synced`; a test delivery is `webhook.test`.';

const page = z.object({ webhooks: z.array(webhook), meta: pageMetaSchema });

/** The documentation of each public webhooks endpoint, keyed like the gateway's route table ("METHOD /path"). */
export const webhooksApi = {
  'POST /webhooks': {
    summary: 'Register a webhook (the secret is shown once)',
    description:
      'Events of all your sessions, or of one (`session_code`). The URL is checked now and again at every delivery. ' +
      'An account has at most 250 webhooks (`409 too_many_webhooks`). ' +
      DELIVERY_RULES,
    body: createWebhookBody,
    responses: {
      201: { description: 'The webhook, with its secret', payload: z.object({ webhook: webhookWithSecret }) },
      409: { description: 'The account has 250 webhooks already (`too_many_webhooks`)' },
      ...INVALID,
      ...SESSIONS_DOWN,
    },
  },
  'GET /webhooks': {
    summary: 'Your webhooks, oldest first',
    query: pageQuery,
    responses: { 200: { description: 'One page of them', payload: page } },
  },
  'GET /webhooks/{id}': {
    summary: 'A webhook of yours',
    params: webhookParams,
    responses: { 200: { description: 'The webhook', payload: z.object({ webhook }) }, ...NOT_FOUND },
  },
  'PATCH /webhooks/{id}': {
    summary: 'Change, enable, disable a webhook, or rotate its secret',
    description:
      'Any of the fields. Disabling fails the deliveries still waiting; enabling again forgets the failure streak. ' +
      'With `rotate_secret`, the new secret is in this answer only, and the old one signs beside it for 24 hours.',
    params: webhookParams,
    body: updateWebhookBody,
    responses: {
      200: {
        description: 'The webhook (with `secret` only after a rotation)',
        payload: z.object({ webhook: webhookWithSecret.partial({ secret: true }) }),
      },
      ...NOT_FOUND,
      ...INVALID,
    },
  },
  'DELETE /webhooks/{id}': {
    summary: 'Delete a webhook, with its delivery log',
    params: webhookParams,
    responses: { 200: { description: 'The deleted webhook', payload: z.object({ webhook }) }, ...NOT_FOUND },
  },
  'POST /webhooks/{id}/test': {
    summary: 'Send a test delivery',
    description:
      'A `webhook.test` event, signed and formatted like any other, sent at once and attempted once; ' +
      'its outcome shows in the delivery log.',
    params: webhookParams,
    responses: {
      202: { description: 'The delivery, queued', payload: z.object({ delivery }) },
      409: { description: 'The webhook is disabled (`webhook_disabled`)' },
      ...NOT_FOUND,
    },
  },
  'GET /webhooks/{id}/deliveries': {
    summary: 'The delivery log: deliveries, newest first, each with its attempts',
    description:
      'Kept 30 days. Each attempt has its time, status, latency, the start of the answer and the error.',
    params: webhookParams,
    query: pageQuery,
    responses: {
      200: {
        description: 'One page of deliveries',
        payload: z.object({ deliveries: z.array(delivery), meta: pageMetaSchema }),
      },
      ...NOT_FOUND,
    },
  },
  'POST /webhooks/{id}/deliveries/{delivery}/redeliver': {
    summary: 'Attempt a delivery again, now',
    description:
      'Same `webhook-id` and body, a new timestamp and signature. A delivery waiting for its next retry is brought ' +
      'forward (its later retries stay); one that succeeded or failed for good is attempted once more.',
    params: deliveryParams,
    responses: {
      202: { description: 'The delivery, queued', payload: z.object({ delivery }) },
      409: {
        description:
          'An attempt is in progress (`delivery_in_flight`), or the webhook is disabled (`webhook_disabled`)',
      },
      ...DELIVERY_NOT_FOUND,
    },
  },
} satisfies UnitDocs;
