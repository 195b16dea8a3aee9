import CircuitBreaker from 'opossum';
import { atMost } from '@pp/async';
import { inKeptTrace, outsideTrace } from '@pp/telemetry';
import type { Logger } from '@pp/logger';
import type { EndpointAnswer, EndpointClient } from '../clients/endpoint.client.ts';
import type { ClaimedDelivery, SettledAttempt } from '../db/dispatch.repository.ts';
import { endpointUnwell } from '../domain/attempt-outcome.ts';
import { attemptDelivery } from '../use-cases/attempt-delivery.use-case.ts';
import { countAttempt } from './delivery-metrics.ts';
import { claimDueDeliveries } from '../use-cases/claim-due-deliveries.use-case.ts';
import { settleAttempts } from '../use-cases/settle-attempts.use-case.ts';
import type { WebhooksContext } from '../use-cases/shared/context.ts';

export interface DispatcherOptions {
  context: () => WebhooksContext;
  endpoint: EndpointClient;
  logger: Logger;
  /** Attempts in flight in this replica, and to one webhook. */
  concurrency: number;
  perEndpoint: number;
  timeoutMs: number;
}

/** An answer that counts against the endpoint's breaker (5xx, 408, 429, no answer), carried through it. */
class Unwell extends Error {
  readonly answer: EndpointAnswer;
  constructor(answer: EndpointAnswer) {
    super('endpoint unwell');
    this.answer = answer;
  }
}

/** How long an endpoint whose breaker opened rests before one attempt tries it again. */
const REST_MS = 30_000;
const CLAIM_BATCH = 100;
const SETTLE_BATCH = 200;

/**
 * Delivers what is due, in this replica: claims due deliveries (never of a webhook it already has as
 * many attempts in flight as allowed, nor of one whose breaker is open, so a slow or dead endpoint
 * holds a few slots and the others go on), attempts them side by side, and records their outcomes in
 * batches. Breakers are per endpoint and per replica: 10 attempts in 10 s at least half of them failed
 * open it, and its deliveries wait 30 s without counting an attempt.
 */
export function createDispatcher(options: DispatcherOptions) {
  const leaseMs = options.timeoutMs + 30_000;
  const inFlight = new Map<string, number>();
  const breakers = new Map<string, CircuitBreaker<[() => Promise<EndpointAnswer>], EndpointAnswer>>();
  const settled: SettledAttempt[] = [];
  let total = 0;
  let stopped = false;
  let claiming: Promise<void> | undefined;
  let again = false;
  /** The last claim was full (more may be due), and the webhooks it skipped (theirs wait for a slot). */
  let backlog = false;
  let waitingOn = new Set<string>();
  let settling: Promise<void> | undefined;
  let settleTimer: NodeJS.Timeout | undefined;
  const drained: Array<() => void> = [];

  const lastUsed = new Map<string, number>();

  function breakerOf(webhookId: string) {
    lastUsed.set(webhookId, Date.now());
    let breaker = breakers.get(webhookId);
    if (!breaker) {
      breaker = new CircuitBreaker(
        async (send: () => Promise<EndpointAnswer>) => {
          const answer = await send();
          if (endpointUnwell(answer.status)) throw new Unwell(answer);
          return answer;
        },
        {
          timeout: false,
          errorThresholdPercentage: 50,
          volumeThreshold: 10,
          resetTimeout: REST_MS,
          rollingCountTimeout: 10_000,
        },
      );
      breaker.on('open', () =>
        options.logger.warn({ webhook_id: webhookId }, 'webhook endpoint failing: resting it'),
      );
      breakers.set(webhookId, breaker);
    }
    return breaker;
  }

  async function send(webhookId: string, url: string, body: string, headers: Record<string, string>) {
    try {
      return await breakerOf(webhookId).fire(() => options.endpoint.post(url, body, headers));
    } catch (err) {
      if (err instanceof Unwell) return err.answer;
      return 'deferred' as const;
    }
  }

  /** Webhooks this replica takes no more of now: as many in flight as allowed, or resting. */
  function busy(): string[] {
    const ids = [...inFlight].filter(([, n]) => n >= options.perEndpoint).map(([id]) => id);
    for (const [id, breaker] of breakers) if (breaker.opened) ids.push(id);
    return ids;
  }

  function settleSoon() {
    // Once stopping, stop() writes what is left itself, a few times at most: no timer outlives it.
    if (stopped) return;
    if (settled.length >= SETTLE_BATCH) void settle();
    else settleTimer ??= setTimeout(() => void settle(), 5);
  }

  /**
   * Writes what is settled, one batch at a time; what could not be written for a reason that may pass
   * (the database unreachable) waits for the next turn. An attempt the database refuses is left out
   * (its delivery, still leased, is attempted again once the lease runs out), never holding the others.
   */
  function settle(): Promise<void> {
    clearTimeout(settleTimer);
    settleTimer = undefined;
    if (settling || settled.length === 0) return settling ?? Promise.resolve();
    const batch = settled.splice(0, SETTLE_BATCH);
    settling = settleAttempts(options.context(), batch)
      .catch((err: unknown) => ({ again: batch, againBecause: err, refused: [] }))
      .then(({ again, againBecause, refused }) => {
        for (const { attempt, error } of refused)
          options.logger.error(
            { err: error, delivery_id: attempt.deliveryId, webhook_id: attempt.webhookId },
            'the database refuses the record of this attempt: left out of the log',
          );
        if (again.length === 0) return;
        options.logger.warn(
          { err: againBecause, attempts: again.length },
          'could not record attempts, will retry',
        );
        settled.unshift(...again);
        return new Promise((r) => setTimeout(r, 1_000));
      })
      .then(() => {
        settling = undefined;
        if (settled.length > 0) settleSoon();
      });
    return settling;
  }

  function start(d: ClaimedDelivery) {
    total++;
    inFlight.set(d.webhookId, (inFlight.get(d.webhookId) ?? 0) + 1);
    const over = (inFlight.get(d.webhookId) ?? 0) > options.perEndpoint;
    // In the trace of the request whose event made the delivery (however late the attempt).
    const attributes = { 'pp.webhook_id': d.webhookId, 'pp.delivery_id': d.id, 'pp.attempt': d.attempt };
    const attempt: Promise<SettledAttempt> = inKeptTrace('webhook delivery', d.traceparent, attributes, () =>
      over
        ? // Claimed in the same batch as others of its webhook past the limit: handed back, due at once.
          attemptDelivery(options.context(), d, async () => 'deferred', 0)
        : attemptDelivery(
            options.context(),
            d,
            (url, body, headers) => send(d.webhookId, url, body, headers),
            REST_MS,
          ),
    );
    void attempt
      .then((result) => {
        countAttempt(result);
        settled.push(result);
      })
      .catch((err) =>
        options.logger.error({ err, delivery_id: d.id }, 'delivery attempt failed unexpectedly'),
      )
      .finally(() => {
        total--;
        const left = (inFlight.get(d.webhookId) ?? 1) - 1;
        if (left === 0) inFlight.delete(d.webhookId);
        else inFlight.set(d.webhookId, left);
        settleSoon();
        if (backlog || (waitingOn.has(d.webhookId) && left < options.perEndpoint)) kick();
        if (total === 0) for (const done of drained.splice(0)) done();
      });
  }

  /** Free slots worth a claim: one claim per slot freed would be a query per delivery. */
  const minClaim = Math.max(1, Math.min(25, Math.floor(options.concurrency / 4)));

  async function claimWhileRoom() {
    do {
      again = false;
      while (!stopped && options.concurrency - total >= (total === 0 ? 1 : minClaim)) {
        const limit = Math.min(CLAIM_BATCH, options.concurrency - total);
        const skip = busy();
        const claimed = await claimDueDeliveries(options.context(), limit, skip, leaseMs);
        for (const d of claimed) start(d);
        backlog = claimed.length === limit;
        waitingOn = new Set(skip);
        if (claimed.length < limit) break;
      }
    } while (again && !stopped);
  }

  /** Looks for due deliveries now (coalesced: one claim at a time, and one more if asked meanwhile). */
  function kick() {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    // Kicked by a consumer, the claim is still no part of its trace: each attempt joins its own.
    claiming = outsideTrace(claimWhileRoom)
      .catch((err) => options.logger.warn({ err }, 'could not claim due deliveries'))
      .finally(() => {
        claiming = undefined;
      });
  }

  /** Lets go of the breakers of endpoints quiet for a minute and healthy (each keeps a timer). */
  function sweep() {
    const quiet = Date.now() - 60_000;
    for (const [id, breaker] of breakers)
      if (breaker.closed && !inFlight.has(id) && (lastUsed.get(id) ?? 0) < quiet) {
        breaker.shutdown();
        breakers.delete(id);
        lastUsed.delete(id);
      }
  }

  return {
    kick,
    sweep,
    /** Stops claiming, lets the attempts in flight finish (at most `graceMs`), and records them. */
    async stop(graceMs: number) {
      stopped = true;
      await claiming;
      if (total > 0) await atMost(graceMs, new Promise<void>((r) => drained.push(r)), undefined);
      for (let tries = 0; tries < 3 && (settled.length > 0 || settling); tries++) await settle();
      for (const breaker of breakers.values()) breaker.shutdown();
    },
  };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
