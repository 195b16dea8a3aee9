/**
 * The statements that reach the growing tables on every event, every batch of attempts and every
 * pruning: planned while the tables were small (a named statement keeps its plan), run once they
 * hold tens of thousands of other owners' webhooks and deliveries, each reads the rows it is about.
 */
import { randomUUID } from 'node:crypto';
import { createDatabase, withOwnConnection } from '@pp/db';
import { createLogger } from '@pp/logger';
import { createTestDatabase, readsBeyond, tableReads, type TestDatabase } from '@pp/testing';
import { ADD_EVENT_DELIVERIES_SQL, PRUNE_DELIVERIES_SQL } from '../src/db/delivery.repository.ts';
import { SETTLE_ATTEMPTS_SQL } from '../src/db/dispatch.repository.ts';
import { migrations } from '../src/db/migrations/index.ts';

const logger = createLogger({ name: 'webhooks-reads-test', level: 'silent' });
/** Runs while the tables are small: enough for a named statement to keep one plan. */
const WARM_UPS = 6;
/** At most what a statement about a few rows may read of a table here. */
const ITS_OWN = 20;
const DAY = 86_400_000;

describe('webhooks’ statements once the tables have grown', () => {
  let db: TestDatabase;
  const session = randomUUID();
  const [everything, revealed, disabled] = [randomUUID(), randomUUID(), randomUUID()];
  const [first, second] = [randomUUID(), randomUUID()];
  let grown = false;

  const sql = (text: string, values: unknown[] = []) =>
    withOwnConnection(db.url, async (client) => (await client.query(text, values)).rows);
  /** Other owners' webhooks and a day of their deliveries, settled. */
  const grow = async () => {
    if (grown) return;
    grown = true;
    await sql(`insert into webhooks (id, owner_id, url, kind, events, secret_sealed, created_at, updated_at)
      select gen_random_uuid(), 'owner-' || n, 'https://hooks.example.test/' || n, 'generic', '{*}', 'sealed', now(), now()
        from generate_series(1, 20000) n`);
    await sql(`insert into deliveries (id, webhook_id, event_id, event_type, payload, status, attempts, created_at)
      select gen_random_uuid(), w.id, gen_random_uuid(), 'story.revealed', '{}', 'succeeded', 1,
             now() - k * interval '1 second'
        from webhooks w, generate_series(1, 3) k where w.owner_id like 'owner-%'`);
  };

  beforeAll(async () => {
    db = await createTestDatabase('webhooks-reads');
    await (await createDatabase({ url: db.url, entities: [], migrations, logger })).close();
    for (const [id, events, sessionId, enabled] of [
      [everything, '{*}', null, true],
      [revealed, '{story.revealed}', session, true],
      [disabled, '{*}', null, false],
    ] as const)
      await sql(
        `insert into webhooks (id, owner_id, url, kind, events, session_id, secret_sealed, enabled, created_at, updated_at)
         values ($1, 'ann', 'https://hooks.example.test/ann', 'generic', $2, $3, 'sealed', $4, now(), now())`,
        [id, events, sessionId, enabled],
      );
    // Two deliveries of Ann's out for their first attempt, and two long settled.
    for (const [id, webhook] of [
      [first, everything],
      [second, revealed],
    ])
      await sql(
        `insert into deliveries (id, webhook_id, event_id, event_type, payload, status, attempts, created_at)
         values ($1, $2, gen_random_uuid(), 'story.revealed', '{}', 'pending', 1, now())`,
        [id, webhook],
      );
    await sql(
      `insert into deliveries (id, webhook_id, event_id, event_type, payload, status, attempts, created_at)
      select gen_random_uuid(), $1, gen_random_uuid(), 'story.revealed', '{}', 'failed', 1, now() - interval '40 days'
        from generate_series(1, 2)`,
      [everything],
    );
  });
  afterAll(() => db.drop());

  it('an event of Ann’s session reaches her webhooks for it, read by owner', async () => {
    const events = JSON.stringify([
      { owner_id: 'ann', session_id: session, event_id: randomUUID(), type: 'story.revealed', payload: {} },
    ]);
    const { rowCount, reads } = await tableReads(
      db.url,
      { name: 'add_event_deliveries', text: ADD_EVENT_DELIVERIES_SQL, values: [events, null] },
      ['webhooks'],
      { warmUps: WARM_UPS, between: grow },
    );
    expect(rowCount).toBe(2);
    expect(readsBeyond(reads, ITS_OWN)).toEqual([]);
  });

  it('a batch of attempts is settled reading its deliveries and webhooks by key', async () => {
    const at = new Date();
    const attempts = JSON.stringify([
      {
        deliveryId: first,
        webhookId: everything,
        number: 1,
        manual: false,
        attemptedAt: at,
        statusCode: 200,
        latencyMs: 12,
        excerpt: 'ok',
        error: null,
        outcome: 'succeeded',
        nextAttemptAt: null,
      },
      {
        deliveryId: second,
        webhookId: revealed,
        number: 1,
        manual: false,
        attemptedAt: at,
        statusCode: 500,
        latencyMs: 15,
        excerpt: 'no',
        error: null,
        outcome: 'failed',
        nextAttemptAt: new Date(at.getTime() + 60_000),
      },
    ]);
    const { reads } = await tableReads(
      db.url,
      { text: SETTLE_ATTEMPTS_SQL, values: [attempts, new Date(at.getTime() - DAY), 'gone', 'failing'] },
      ['deliveries', 'webhooks'],
      { warmUps: WARM_UPS, between: grow },
    );
    expect(readsBeyond(reads, ITS_OWN)).toEqual([]);
  });

  it('pruning takes the oldest settled deliveries through the index of their age', async () => {
    const { rowCount, reads } = await tableReads(
      db.url,
      {
        name: 'prune_deliveries',
        text: PRUNE_DELIVERIES_SQL,
        values: [new Date(Date.now() - 30 * DAY), 100],
      },
      ['deliveries'],
      { warmUps: WARM_UPS, between: grow },
    );
    expect(rowCount).toBe(2);
    expect(readsBeyond(reads, ITS_OWN)).toEqual([]);
  });
});
