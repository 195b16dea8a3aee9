import { storableText } from '@pp/contracts';
import { retryAfterMs } from '@pp/http-client';
import type { EndpointAnswer } from '../clients/endpoint.client.ts';
import type { ClaimedDelivery, SettledAttempt } from '../db/dispatch.repository.ts';
import { outcomeOf, THROTTLING } from '../domain/attempt-outcome.ts';
import { bodyFor } from '../domain/chat-formats.ts';
import { nextRetryDelay } from '../domain/retry-policy.ts';
import { signedHeaders } from '../domain/signature.ts';
import type { WebhooksContext } from './shared/context.ts';

/** Sends one attempt; `deferred` when it was not made (the endpoint is resting after failing a lot). */
export type Send = (
  url: string,
  body: string,
  headers: Record<string, string>,
) => Promise<EndpointAnswer | 'deferred'>;

const EXCERPT_CHARS = 1024;

/** The secrets that sign now: the current one, and the previous one while its rotation overlap lasts. */
function signingSecrets(ctx: WebhooksContext, d: ClaimedDelivery, now: Date): string[] {
  const secrets = [ctx.secrets.open(d.secretSealed, d.webhookId)];
  if (d.previousSecretSealed && d.previousSecretUntil && d.previousSecretUntil > now)
    secrets.push(ctx.secrets.open(d.previousSecretSealed, d.webhookId));
  return secrets;
}

/** Discord says how long to wait in its 429's body too. */
function bodyRetryAfter(excerpt: string | undefined): string | undefined {
  try {
    const seconds = (JSON.parse(excerpt ?? '') as { retry_after?: unknown }).retry_after;
    return typeof seconds === 'number' ? String(seconds) : undefined;
  } catch {
    return undefined;
  }
}

/** What the receiver sent, as the log can keep it: a NUL shows as U+FFFD (something was there). */
const storable = (text: string) => storableText(text, '\ufffd');

function errorOf(answer: EndpointAnswer): string | null {
  if (answer.error) return storable(answer.error);
  if (answer.status !== undefined && answer.status >= 300 && answer.status < 400)
    return 'redirects are not followed';
  return null;
}

/**
 * One attempt of a delivery: the body in the webhook's format, signed (Standard Webhooks: the same
 * webhook-id on every attempt, this attempt's timestamp), sent, and what came of it with the time of
 * the next attempt, if any, counted from the answer.
 */
export async function attemptDelivery(
  ctx: WebhooksContext,
  d: ClaimedDelivery,
  send: Send,
  restMs: number,
): Promise<SettledAttempt> {
  const attemptedAt = ctx.now();
  const body = JSON.stringify(bodyFor(d.kind, d.payload));
  const base = { deliveryId: d.id, webhookId: d.webhookId, number: d.attempt, manual: d.manual, attemptedAt };
  let answer: EndpointAnswer | 'deferred';
  try {
    const headers = signedHeaders(
      signingSecrets(ctx, d, attemptedAt),
      d.id,
      Math.floor(attemptedAt.getTime() / 1000),
      body,
    );
    answer = await send(d.url, body, headers);
  } catch (err) {
    answer = { error: `could not sign: ${(err as Error).message}`, latencyMs: 0 };
  }
  if (answer === 'deferred') {
    const next = new Date(attemptedAt.getTime() + restMs);
    return {
      ...base,
      statusCode: null,
      latencyMs: 0,
      excerpt: null,
      error: null,
      outcome: 'deferred',
      nextAttemptAt: next,
    };
  }
  // The next attempt is timed from the answer, as a Retry-After is meant (the attempt itself may have
  // taken a while: a connection, a slow endpoint).
  const answeredAt = ctx.now();
  const outcome = outcomeOf(answer.status);
  const asked = THROTTLING.has(answer.status ?? 0)
    ? (answer.retryAfter ?? bodyRetryAfter(answer.excerpt))
    : undefined;
  const delay =
    outcome === 'failed'
      ? nextRetryDelay({
          attempts: d.attempt,
          retries: d.retries,
          retryAfterMs: retryAfterMs(asked, answeredAt.getTime()),
          scale: ctx.retryScale,
        })
      : undefined;
  return {
    ...base,
    statusCode: answer.status ?? null,
    latencyMs: answer.latencyMs,
    excerpt: answer.excerpt === undefined ? null : storable(answer.excerpt.slice(0, EXCERPT_CHARS)),
    error: errorOf(answer),
    outcome,
    nextAttemptAt: delay === undefined ? null : new Date(answeredAt.getTime() + delay),
  };
}
