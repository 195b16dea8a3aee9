/** What became of one attempt, from the receiver's answer (or the lack of one). */
export type AttemptOutcome =
  /** A 2xx: delivered. */
  | 'succeeded'
  /** A 410 Gone: the endpoint says it is gone for good; the webhook is disabled. */
  | 'gone'
  /** Anything else (3xx included: redirects are not followed): try again later, if attempts remain. */
  | 'failed';

export function outcomeOf(status: number | undefined): AttemptOutcome {
  if (status !== undefined && status >= 200 && status < 300) return 'succeeded';
  if (status === 410) return 'gone';
  return 'failed';
}

/** Statuses whose Retry-After is honoured (a throttling or busy receiver). */
export const THROTTLING = new Set([429, 503]);

/** Whether an answer says the endpoint itself is unwell (it counts against the endpoint's breaker). */
export const endpointUnwell = (status: number | undefined) =>
  status === undefined || status >= 500 || status === 408 || status === 429;
