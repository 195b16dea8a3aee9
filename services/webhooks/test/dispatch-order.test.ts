import { randomUUID } from 'node:crypto';
import { createDatabase, type Database } from '@pp/db';
import { createLogger } from '@pp/logger';
import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { entities } from '../src/db/entities/index.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { addEventDeliveries, listDeliveries } from '../src/db/delivery.repository.ts';
import { claimDueDeliveries } from '../src/db/dispatch.repository.ts';
import { insertWebhook } from '../src/db/webhook.repository.ts';
import type { WebhookPayload } from '../src/domain/payload.ts';

/**
 * A burst of events recorded in one statement is due at one moment: the claims must still take them
 * event after event, each to every webhook, so that one claim reaches many endpoints (a claim piled on
 * one webhook would hand most of it back, and the other endpoints would wait).
 */
describe('deliveries of a burst of events', () => {
  let test: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    test = await createTestDatabase('webhooks_order');
    db = await createDatabase({
      url: test.url,
      entities,
      migrations,
      logger: createLogger({ name: 'webhooks-order-test', level: 'silent' }),
    });
  });
  afterAll(async () => {
    await db?.close();
    await test?.drop();
  });

  // As many as a busy owner's burst: a room's votes reaching a hundred endpoints.
  const HOOKS = 100;
  const EVENTS = 64;

  it('are claimed event by event across the webhooks, not webhook by webhook', async () => {
    const ownerId = 'owner-1';
    const sessionId = randomUUID();
    const hooks: string[] = [];
    for (let i = 0; i < HOOKS; i++) {
      const hook = await insertWebhook(
        db.fork(),
        {
          id: randomUUID(),
          ownerId,
          url: `http://127.0.0.1:9/hook-${i}`,
          kind: 'generic',
          events: ['story.created'],
          sessionId: null,
          sessionCode: null,
          secretSealed: 'sealed',
        },
        HOOKS,
      );
      hooks.push(hook!.id);
    }
    const events = Array.from({ length: EVENTS }, (_, i) => ({
      ownerId,
      sessionId,
      eventId: randomUUID(),
      type: 'story.created',
      payload: { n: i } as unknown as WebhookPayload,
    }));
    expect(await addEventDeliveries(db.fork(), events)).toBe(HOOKS * EVENTS);

    const claimed = await claimDueDeliveries(db.fork(), 2 * HOOKS, [], 60_000);
    expect(claimed).toHaveLength(2 * HOOKS);
    const perWebhook = new Map<string, number>();
    for (const d of claimed) perWebhook.set(d.webhookId, (perWebhook.get(d.webhookId) ?? 0) + 1);
    expect([...perWebhook.keys()].sort()).toEqual([...hooks].sort());
    expect([...perWebhook.values()]).toEqual(hooks.map(() => 2));
    // the first two events, in the order they came
    expect(new Set(claimed.map((d) => (d.payload as unknown as { n: number }).n))).toEqual(new Set([0, 1]));

    // each webhook's delivery log has them newest first: the last event of the burst first
    const log = await listDeliveries(db.fork(), hooks[0]!, EVENTS, 0);
    expect(log.deliveries.map((d) => (d.delivery.payload as unknown as { n: number }).n)).toEqual(
      events.map((_, i) => EVENTS - 1 - i),
    );

    // recorded again (a redelivered burst): nothing more
    expect(await addEventDeliveries(db.fork(), events)).toBe(0);
  });
});
