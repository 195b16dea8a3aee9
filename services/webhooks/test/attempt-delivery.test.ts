import type { EntityManager } from '@pp/db';
import type { OutboundPolicy } from '@pp/outbound';
import type { SessionsClient } from '@pp/http-client';
import type { ClaimedDelivery } from '../src/db/dispatch.repository.ts';
import { secretBox } from '../src/domain/secret-box.ts';
import { attemptDelivery, type Send } from '../src/use-cases/attempt-delivery.use-case.ts';
import type { WebhooksContext } from '../src/use-cases/shared/context.ts';

const secrets = secretBox('webhooks-test-key-0123456789abcdef0123456789');
const WEBHOOK = '6f1c7b1e-8a53-4b8e-9a54-5d6c7e8f9a0b';

/** A clock the fake endpoint moves on, as a slow answer would. */
function clock(start = Date.parse('2026-11-25T12:00:00Z')) {
  let now = start;
  return { now: () => new Date(now), pass: (ms: number) => void (now += ms) };
}

function context(now: () => Date): WebhooksContext {
  return {
    em: {} as EntityManager,
    now,
    secrets,
    sessions: {} as SessionsClient,
    outbound: {} as OutboundPolicy,
    deliverNow: () => {},
    retryScale: 1,
  };
}

const delivery = (): ClaimedDelivery => ({
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  webhookId: WEBHOOK,
  payload: { type: 'story.created', timestamp: '2026-11-25T12:00:00Z', data: {} },
  attempt: 1,
  retries: true,
  manual: false,
  url: 'https://hooks.example.com/in',
  kind: 'generic',
  secretSealed: secrets.seal('whsec_test', WEBHOOK),
  previousSecretSealed: null,
  previousSecretUntil: null,
});

describe('one delivery attempt', () => {
  it("times the next attempt from the endpoint's answer, as its Retry-After asks", async () => {
    const time = clock();
    const sent = time.now().getTime();
    // The endpoint takes 3 s to answer 429 with Retry-After: 3600 (longer than the first retry's 1 min).
    const send: Send = async () => {
      time.pass(3_000);
      return { status: 429, retryAfter: '3600', latencyMs: 3_000 };
    };
    const attempt = await attemptDelivery(context(time.now), delivery(), send, 0);
    expect(attempt.outcome).toBe('failed');
    expect(attempt.attemptedAt.getTime()).toBe(sent);
    expect(attempt.nextAttemptAt!.getTime()).toBe(sent + 3_000 + 3_600_000);
  });
});
