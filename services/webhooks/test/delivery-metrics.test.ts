import { registry } from '@pp/http';
import { countAttempt } from '../src/background/delivery-metrics.ts';
import type { SettledAttempt } from '../src/db/dispatch.repository.ts';

const attempt = (outcome: SettledAttempt['outcome'], latencyMs: number): SettledAttempt => ({
  deliveryId: 'd1',
  webhookId: 'w1',
  number: 1,
  manual: false,
  attemptedAt: new Date(),
  statusCode: outcome === 'succeeded' ? 200 : null,
  latencyMs,
  excerpt: null,
  error: null,
  outcome,
  nextAttemptAt: null,
});

/** What the dashboard's delivery success and latency panels, and the failure alert, read. */
describe('webhook delivery metrics', () => {
  it('count attempts by outcome and time those an endpoint answered', async () => {
    countAttempt(attempt('succeeded', 120));
    countAttempt(attempt('failed', 2_000));
    countAttempt(attempt('deferred', 0));
    const text = await registry.metrics();
    expect(text).toContain('webhook_delivery_attempts_total{outcome="succeeded"} 1');
    expect(text).toContain('webhook_delivery_attempts_total{outcome="failed"} 1');
    expect(text).toContain('webhook_delivery_attempts_total{outcome="deferred"} 1');
    expect(text).toContain('webhook_delivery_duration_seconds_bucket{le="0.25",outcome="succeeded"} 1');
    expect(text).toContain('webhook_delivery_duration_seconds_sum{outcome="failed"} 2');
    // A deferred attempt was not made: no time of it.
    expect(text).not.toContain('webhook_delivery_duration_seconds_count{outcome="deferred"}');
  });
});
