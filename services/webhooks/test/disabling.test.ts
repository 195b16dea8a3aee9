import { randomUUID } from 'node:crypto';
import { createDatabase, type Database } from '@pp/db';
import { createLogger } from '@pp/logger';
import type { OutboundPolicy } from '@pp/outbound';
import { createTestDatabase, type TestDatabase } from '@pp/testing';
import type { SessionsClient } from '@pp/http-client';
import { entities } from '../src/db/entities/index.ts';
import { migrations } from '../src/db/migrations/index.ts';
import {
  addEventDeliveries,
  addTestDelivery,
  findDelivery,
  listDeliveries,
  requestRedelivery,
} from '../src/db/delivery.repository.ts';
import {
  claimDueDeliveries,
  type ClaimedDelivery,
  type SettledAttempt,
} from '../src/db/dispatch.repository.ts';
import { findWebhook, insertWebhook } from '../src/db/webhook.repository.ts';
import type { WebhookPayload } from '../src/domain/payload.ts';
import { DISABLE_AFTER_MS } from '../src/domain/retry-policy.ts';
import { secretBox } from '../src/domain/secret-box.ts';
import { settleAttempts } from '../src/use-cases/settle-attempts.use-case.ts';
import type { WebhooksContext } from '../src/use-cases/shared/context.ts';
import { updateWebhook } from '../src/use-cases/update-webhook.use-case.ts';

const HOUR = 3_600_000;

/**
 * However a webhook comes to be disabled (its owner, a 410, 5 days of failures), no delivery of it stays
 * pending, to go out when it is enabled again: the one whose attempt disabled it fails with the others.
 */
describe('a webhook disabled', () => {
  let test: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    test = await createTestDatabase('webhooks_disabling');
    db = await createDatabase({
      url: test.url,
      entities,
      migrations,
      logger: createLogger({ name: 'webhooks-disabling-test', level: 'silent' }),
    });
  });
  afterAll(async () => {
    await db?.close();
    await test?.drop();
  });

  const context = (now: Date): WebhooksContext => ({
    em: db.fork(),
    now: () => now,
    secrets: secretBox('webhooks-test-key-0123456789abcdef0123456789'),
    sessions: {} as SessionsClient,
    outbound: {} as OutboundPolicy,
    deliverNow: () => {},
    retryScale: 1,
  });

  /** A webhook of an owner of its own, with a delivery of each of `events` new events, due now. */
  async function webhookWithDeliveries(events: number) {
    const ownerId = `owner-${randomUUID()}`;
    const hook = await insertWebhook(
      db.fork(),
      {
        id: randomUUID(),
        ownerId,
        url: 'http://127.0.0.1:9/hook',
        kind: 'generic',
        events: ['story.created'],
        sessionId: null,
        sessionCode: null,
        secretSealed: 'sealed',
      },
      10,
    );
    const sessionId = randomUUID();
    await addEventDeliveries(
      db.fork(),
      Array.from({ length: events }, (_, n) => ({
        ownerId,
        sessionId,
        eventId: randomUUID(),
        type: 'story.created',
        payload: { n } as unknown as WebhookPayload,
      })),
    );
    return { ownerId, webhookId: hook!.id };
  }

  /** What came of an attempt of a claimed delivery: a 500 (next attempt at `next`), or none made. */
  const attempt = (
    d: ClaimedDelivery,
    at: Date,
    outcome: 'failed' | 'deferred',
    next: Date,
  ): SettledAttempt => ({
    deliveryId: d.id,
    webhookId: d.webhookId,
    number: d.attempt,
    manual: d.manual,
    attemptedAt: at,
    statusCode: outcome === 'failed' ? 500 : null,
    latencyMs: 10,
    excerpt: null,
    error: null,
    outcome,
    nextAttemptAt: next,
  });

  const state = async (webhookId: string, id: string) => {
    const d = await findDelivery(db.fork(), webhookId, id);
    return { status: d?.status, nextAttemptAt: d?.nextAttemptAt };
  };

  it('by 5 days of failures fails the deliveries of the batch that disabled it, and the others waiting', async () => {
    const { ownerId, webhookId } = await webhookWithDeliveries(3);
    // Two deliveries failed first more than 5 days ago; their retries were due since.
    const then = new Date(Date.now() - DISABLE_AFTER_MS - HOUR);
    const first = await claimDueDeliveries(db.fork(), 2, [], 60_000);
    expect(first).toHaveLength(2);
    await settleAttempts(
      context(then),
      first.map((d, i) => attempt(d, then, 'failed', new Date(then.getTime() + (i + 1) * 5_000))),
    );
    expect((await findWebhook(db.fork(), webhookId))!.enabled).toBe(true);
    for (const d of first) expect((await state(webhookId, d.id)).status).toBe('pending');

    // Now one fails again (the rule disables the webhook); the other was not tried (its endpoint rests).
    const now = new Date();
    const [failing, resting] = await claimDueDeliveries(db.fork(), 2, [], 60_000);
    expect([failing!.id, resting!.id].sort()).toEqual(first.map((d) => d.id).sort());
    await settleAttempts(context(now), [
      attempt(failing!, now, 'failed', new Date(now.getTime() + 30 * 60_000)),
      attempt(resting!, now, 'deferred', new Date(now.getTime() + 30_000)),
    ]);

    const webhook = await findWebhook(db.fork(), webhookId);
    expect(webhook).toMatchObject({ enabled: false, disabledReason: 'Every delivery failed for 5 days' });
    const { deliveries } = await listDeliveries(db.fork(), webhookId, 10, 0);
    expect(deliveries.map(({ delivery: d }) => [d.status, d.nextAttemptAt])).toEqual([
      ['failed', null],
      ['failed', null],
      ['failed', null],
    ]);

    // Enabled again, it sends only what happens from then on.
    await updateWebhook(context(new Date()), ownerId, webhookId, { enabled: true });
    expect(await claimDueDeliveries(db.fork(), 10, [], 60_000)).toEqual([]);
  });

  it('by its owner during an attempt fails that delivery once the attempt is recorded', async () => {
    const { ownerId, webhookId } = await webhookWithDeliveries(1);
    const [inFlight] = await claimDueDeliveries(db.fork(), 1, [], 60_000);
    await updateWebhook(context(new Date()), ownerId, webhookId, { enabled: false });
    // The attempt was in flight: the owner's disabling left it to the attempt's record.
    expect((await state(webhookId, inFlight!.id)).status).toBe('pending');

    const now = new Date();
    await settleAttempts(context(now), [attempt(inFlight!, now, 'failed', new Date(now.getTime() + 5_000))]);
    expect(await state(webhookId, inFlight!.id)).toEqual({ status: 'failed', nextAttemptAt: null });
    expect((await findWebhook(db.fork(), webhookId))!.disabledReason).toBe('disabled by its owner');

    await updateWebhook(context(new Date()), ownerId, webhookId, { enabled: true });
    expect(await claimDueDeliveries(db.fork(), 10, [], 60_000)).toEqual([]);
  });

  it('by its owner just before a redelivery or a test delivery is queued leaves nothing to go out when enabled again', async () => {
    const { ownerId, webhookId } = await webhookWithDeliveries(1);
    const { delivery } = (await listDeliveries(db.fork(), webhookId, 1, 0)).deliveries[0]!;
    // The redelivery and the test delivery read the webhook enabled; its owner disables it before they queue.
    await updateWebhook(context(new Date()), ownerId, webhookId, { enabled: false });
    expect(await requestRedelivery(db.fork(), webhookId, delivery.id)).toBeUndefined();
    const test = { type: 'webhook.test', timestamp: new Date().toISOString(), data: {} };
    expect(await addTestDelivery(db.fork(), { id: randomUUID(), webhookId, payload: test })).toBeUndefined();
    expect(await state(webhookId, delivery.id)).toEqual({ status: 'failed', nextAttemptAt: null });

    await updateWebhook(context(new Date()), ownerId, webhookId, { enabled: true });
    expect(await claimDueDeliveries(db.fork(), 10, [], 60_000)).toEqual([]);
  });
});
