import { atMost } from '@pp/async';
import { inKeptTrace, outsideTrace } from '@pp/telemetry';
import type { Logger } from '@pp/logger';
import type { EndpointClient } from '../clients/endpoint.client.ts';
import type { ClaimedDelivery } from '../db/dispatch.repository.ts';
import { attemptDelivery } from '../use-cases/attempt-delivery.use-case.ts';
import { countAttempt } from './delivery-metrics.ts';
import { claimDueDeliveries } from '../use-cases/claim-due-deliveries.use-case.ts';
import type { WebhooksContext } from '../use-cases/shared/context.ts';
import { endpointBreakers, REST_MS } from './dispatch/endpoint-breakers.ts';
import { createSettler } from './dispatch/settler.ts';
import { Slots } from './dispatch/slots.ts';

export interface DispatcherOptions {
  context: () => WebhooksContext;
  endpoint: EndpointClient;
  logger: Logger;
  /** Attempts in flight in this replica, and to one webhook. */
  concurrency: number;
  perEndpoint: number;
  timeoutMs: number;
}

const CLAIM_BATCH = 100;

/**
 * Delivers what is due, in this replica, in three parts. Before: claims due deliveries, never of a
 * webhook it already has as many attempts in flight as allowed, nor of one whose endpoint rests after
 * failing a lot (so a slow or dead endpoint holds a few slots and the others go on). During: attempts
 * them side by side (`Slots` counts them, `endpointBreakers` rests failing endpoints). After: records
 * their outcomes in batches (`createSettler`), and claims again where a slot was freed.
 */
export function createDispatcher(options: DispatcherOptions) {
  const leaseMs = options.timeoutMs + 30_000;
  const slots = new Slots(options.perEndpoint);
  const endpoints = endpointBreakers(options.endpoint, options.logger);
  const settler = createSettler(options);
  /** Free slots worth a claim: one claim per slot freed would be a query per delivery. */
  const minClaim = Math.max(1, Math.min(25, Math.floor(options.concurrency / 4)));
  const claims = {
    stopped: false,
    /** The claim under way: one at a time. */
    running: undefined as Promise<void> | undefined,
    /** Asked for again while one was under way. */
    again: false,
    /** The last claim was full: more may be due. */
    backlog: false,
    /** The webhooks the last claim skipped: theirs wait for a slot. */
    waitingOn: new Set<string>(),
  };

  // ---- before: claiming ----------------------------------------------------------------------------

  /** Webhooks this replica takes no more of now: as many in flight as allowed, or resting. */
  const busy = () => [...slots.full(), ...endpoints.resting()];
  const room = () => options.concurrency - slots.total;

  async function claimWhileRoom() {
    do {
      claims.again = false;
      while (!claims.stopped && room() >= (slots.total === 0 ? 1 : minClaim)) {
        const limit = Math.min(CLAIM_BATCH, room());
        const skip = busy();
        const claimed = await claimDueDeliveries(options.context(), limit, skip, leaseMs);
        for (const d of claimed) attempt(d);
        claims.backlog = claimed.length === limit;
        claims.waitingOn = new Set(skip);
        if (claimed.length < limit) break;
      }
    } while (claims.again && !claims.stopped);
  }

  /** Looks for due deliveries now (coalesced: one claim at a time, and one more if asked meanwhile). */
  function kick() {
    if (claims.stopped) return;
    if (claims.running) {
      claims.again = true;
      return;
    }
    // Kicked by a consumer, the claim is still no part of its trace: each attempt joins its own.
    claims.running = outsideTrace(claimWhileRoom)
      .catch((err) => options.logger.warn({ err }, 'could not claim due deliveries'))
      .finally(() => {
        claims.running = undefined;
      });
  }

  // ---- during: one attempt -------------------------------------------------------------------------

  function attempt(d: ClaimedDelivery) {
    const within = slots.take(d.webhookId);
    // In the trace of the request whose event made the delivery (however late the attempt).
    const attributes = { 'pp.webhook_id': d.webhookId, 'pp.delivery_id': d.id, 'pp.attempt': d.attempt };
    const made = inKeptTrace('webhook delivery', d.traceparent, attributes, () =>
      within
        ? attemptDelivery(
            options.context(),
            d,
            (url, body, headers) => endpoints.post(d.webhookId, url, body, headers),
            REST_MS,
          )
        : // Claimed in the same batch as others of its webhook past the limit: handed back, due at once.
          attemptDelivery(options.context(), d, async () => 'deferred', 0),
    );
    void made
      .then((result) => {
        countAttempt(result);
        settler.add(result);
      })
      .catch((err) =>
        options.logger.error({ err, delivery_id: d.id }, 'delivery attempt failed unexpectedly'),
      )
      .finally(() => finished(d.webhookId));
  }

  // ---- after: a slot freed -------------------------------------------------------------------------

  function finished(webhookId: string) {
    const left = slots.release(webhookId);
    if (claims.backlog || (claims.waitingOn.has(webhookId) && left < options.perEndpoint)) kick();
  }

  return {
    kick,
    /** Lets go of the breakers of endpoints quiet for a minute and healthy (each holds its window of counts). */
    sweep: () => endpoints.sweep((webhookId) => slots.has(webhookId)),
    /** Stops claiming, lets the attempts in flight finish (at most `graceMs`), and records them. */
    async stop(graceMs: number) {
      claims.stopped = true;
      settler.hold();
      await claims.running;
      await atMost(graceMs, slots.drained(), undefined);
      await settler.flush();
      endpoints.shutdown();
    },
  };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
