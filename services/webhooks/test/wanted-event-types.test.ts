/**
 * The event types the enabled webhooks want, as the unit's replicas read them every two seconds: kept
 * with every change of the webhooks, always what the webhooks say, and read without them.
 */
import { randomUUID } from 'node:crypto';
import { createDatabase, withOwnConnection } from '@pp/db';
import { createLogger } from '@pp/logger';
import { createTestDatabase, tableReads, type TestDatabase } from '@pp/testing';
import { migrations } from '../src/db/migrations/index.ts';

const logger = createLogger({ name: 'wanted-types-test', level: 'silent' });
const KEPT = 'select type, webhooks, since from wanted_event_types where webhooks > 0 order by type';
/** What the webhooks themselves say: each type's enabled webhooks and their earliest last change. */
const FROM_WEBHOOKS = `select t.type, count(distinct w.id)::int as webhooks, min(w.updated_at) as since
    from webhooks w, unnest(w.events) as t(type) where w.enabled group by t.type order by t.type`;

describe('the event types the webhooks want', () => {
  let db: TestDatabase;
  const sql = (text: string, values: unknown[] = []) =>
    withOwnConnection(db.url, async (client) => (await client.query(text, values)).rows);
  const start = Date.now();
  const minutesAgo = (m: number) => new Date(start - m * 60_000);
  const add = (events: string[], updatedAt: Date, enabled = true) => {
    const id = randomUUID();
    return sql(
      `insert into webhooks (id, owner_id, url, kind, events, secret_sealed, enabled, created_at, updated_at)
       values ($1::uuid, 'owner-' || $1::text, 'https://hooks.example.test/', 'generic', $2, 'sealed', $3, $4, $4)`,
      [id, events, enabled, updatedAt],
    ).then(() => id);
  };
  const expectKept = async () => {
    const kept = await sql(KEPT);
    expect(kept).toEqual(await sql(FROM_WEBHOOKS));
    return kept;
  };

  beforeAll(async () => {
    db = await createTestDatabase('webhooks-wanted');
  });
  afterAll(() => db.drop());

  it('are counted from the webhooks there before, and kept through every change', async () => {
    const before = migrations.filter((m) => m.name !== '0003-wanted-event-types');
    await (await createDatabase({ url: db.url, entities: [], migrations: before, logger })).close();
    const oldest = await add(['story.revealed', 'vote.cast'], minutesAgo(50));
    await add(['*'], minutesAgo(40));
    await add(['story.revealed'], minutesAgo(30), false);
    await (await createDatabase({ url: db.url, entities: [], migrations, logger })).close();
    expect(await expectKept()).toHaveLength(3);

    // Made, a type twice; disabled and enabled again; its types changed; edited (its last change).
    const later = await add(['story.revealed', 'story.revealed', 'session.created'], minutesAgo(20));
    await sql(`update webhooks set enabled = false where id = $1`, [later]);
    await expectKept();
    await sql(`update webhooks set enabled = true, updated_at = $2 where id = $1`, [later, minutesAgo(10)]);
    await expectKept();
    await sql(`update webhooks set events = '{vote.cast}', updated_at = now() where id = $1`, [oldest]);
    const kept = await expectKept();
    // The oldest webhook no longer wants story.revealed: its time is the next one's.
    expect(kept.find((k) => k.type === 'story.revealed')!.since).toEqual(minutesAgo(10));
    // A change of what does not count (a failing streak) leaves them as they were.
    await sql(`update webhooks set failing_since = now()`);
    await expectKept();
    // Deleted: the last webhook of a type takes the type with it.
    await sql(`delete from webhooks where id = $1`, [later]);
    expect((await expectKept()).map((k) => k.type)).not.toContain('session.created');
    await sql(`update webhooks set enabled = false`);
    expect(await expectKept()).toEqual([]);
  });

  it('are read without reading the webhooks', async () => {
    const { reads } = await tableReads(
      db.url,
      { text: 'select type, since from wanted_event_types where webhooks > 0', values: [] },
      ['webhooks'],
    );
    expect(reads.webhooks).toEqual({ seqScans: 0, indexScans: 0, rowsRead: 0 });
  });
});
