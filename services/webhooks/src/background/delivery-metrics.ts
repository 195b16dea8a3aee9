import { counter, histogram } from '@pp/http';
import type { SettledAttempt } from '../db/dispatch.repository.ts';

const attempts = counter('webhook_delivery_attempts_total', 'Webhook delivery attempts by outcome', [
  'outcome',
]);
const latency = histogram(
  'webhook_delivery_duration_seconds',
  'How long endpoints took to answer a delivery attempt, by outcome',
  ['outcome'],
  [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
);

/**
 * Counts an attempt (succeeded, failed, gone, or deferred: not made, its endpoint resting) and how
 * long its endpoint took, for the dashboard's delivery success and latency and the failure alert.
 */
export function countAttempt(attempt: SettledAttempt): void {
  attempts.inc({ outcome: attempt.outcome });
  if (attempt.outcome !== 'deferred') latency.observe({ outcome: attempt.outcome }, attempt.latencyMs / 1000);
}
