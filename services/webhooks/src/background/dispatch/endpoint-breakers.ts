import { keyedBreakers } from '@pp/http-client';
import type { Logger } from '@pp/logger';
import type { EndpointAnswer, EndpointClient } from '../../clients/endpoint.client.ts';
import { endpointUnwell } from '../../domain/attempt-outcome.ts';

/** How long an endpoint whose breaker opened rests before one attempt tries it again. */
export const REST_MS = 30_000;
/** A healthy endpoint's breaker is let go of after this long without an attempt (each holds its window of counts). */
const QUIET_MS = 60_000;

/** An answer that counts against the endpoint's breaker (5xx, 408, 429, no answer), carried through it. */
class Unwell extends Error {
  readonly answer: EndpointAnswer;
  constructor(answer: EndpointAnswer) {
    super('endpoint unwell');
    this.answer = answer;
  }
}

/**
 * The endpoint client behind one breaker per webhook, in this replica: 10 attempts in 10 s at least
 * half of them failed open it, and the webhook's endpoint rests for REST_MS.
 */
export function endpointBreakers(endpoint: EndpointClient, logger: Logger) {
  const breakers = keyedBreakers({
    action: async (send: () => Promise<EndpointAnswer>) => {
      const answer = await send();
      if (endpointUnwell(answer.status)) throw new Unwell(answer);
      return answer;
    },
    breaker: { resetTimeoutMs: REST_MS },
    onOpen: (webhookId) => logger.warn({ webhook_id: webhookId }, 'webhook endpoint failing: resting it'),
  });

  return {
    /** The endpoint's answer (an unwell one too), or `deferred` when it rests: no attempt was made. */
    async post(webhookId: string, url: string, body: string, headers: Record<string, string>) {
      try {
        return await breakers.fire(webhookId, () => endpoint.post(url, body, headers));
      } catch (err) {
        if (err instanceof Unwell) return err.answer;
        return 'deferred' as const;
      }
    },
    /** The webhooks whose endpoint rests now. */
    resting: () => breakers.opened(),
    /** Lets go of the breakers of endpoints quiet for a minute and healthy, but those `busy` says are in use. */
    sweep: (busy: (webhookId: string) => boolean) => breakers.sweep(QUIET_MS, busy),
    shutdown: () => breakers.shutdown(),
  };
}
export type EndpointBreakers = ReturnType<typeof endpointBreakers>;
