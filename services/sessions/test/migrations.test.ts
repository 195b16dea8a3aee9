import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase, runStatement, withDatabaseName } from '@pp/db';
import { createLogger } from '@pp/logger';
import { createTestDatabase, testServerUrl } from '@pp/testing';
import { migrations } from '../src/db/migrations/index.ts';

/** é as one character (U+00E9), and as e followed by a combining acute accent (U+0301). */
const COMPOSED = '\u00e9';
const DECOMPOSED = 'e\u0301';

describe('the cards kept before cards were read as NFC', () => {
  it('are brought to NFC with the votes cast with them, and still match', async () => {
    const db = await createTestDatabase('sessions-nfc');
    const logger = createLogger({ name: 'sessions-nfc-test', level: 'silent' });
    const before = migrations.filter((m) => m.name !== '0006-nfc-cards');
    const old = await createDatabase({ url: db.url, entities: [], migrations: before, logger });
    const sql = old.fork().getConnection();
    const deck = JSON.stringify([DECOMPOSED, COMPOSED, 'XL']);
    await sql.execute(
      `insert into sessions (id, code, name, owner_id, status, voting_system, custom_deck_values, created_at, updated_at)
       values ('8a6e0804-2bd0-4672-b79d-d97027f90711', 'NFCNFC', 'Old', 'ann', 'active', 'custom', ?::jsonb, now(), now())`,
      [deck],
    );
    await sql.execute(
      `insert into rounds (id, session_id, status) values ('8a6e0804-2bd0-4672-b79d-d97027f90712', '8a6e0804-2bd0-4672-b79d-d97027f90711', 'voting')`,
    );
    const [voter] = await sql.execute(
      `insert into participants (session_id, name, role, token_hash, joined_at)
       values ('8a6e0804-2bd0-4672-b79d-d97027f90711', 'Bob', 'participant', repeat('0', 64), now()) returning id`,
    );
    await sql.execute(
      `insert into votes (story_id, participant_id, value, created_at, updated_at)
       values ('8a6e0804-2bd0-4672-b79d-d97027f90712', ?, ?, now(), now())`,
      [voter!.id, DECOMPOSED],
    );
    await sql.execute(
      `insert into workspaces (owner_id, name, defaults, created_at, updated_at)
       values ('ann', 'Ann', ?::jsonb, now(), now())`,
      [JSON.stringify({ voting_system: 'custom', custom_deck_values: [DECOMPOSED, 'XL'] })],
    );
    await old.close();

    const now = await createDatabase({ url: db.url, entities: [], migrations, logger });
    const read = now.fork().getConnection();
    const [session] = await read.execute(`select custom_deck_values from sessions where code = 'NFCNFC'`);
    // The two spellings became one card: the first place stays.
    expect(session!.custom_deck_values).toEqual([COMPOSED, 'XL']);
    const [vote] = await read.execute(`select value from votes where participant_id = ?`, [voter!.id]);
    expect(vote!.value).toBe(COMPOSED);
    const [workspace] = await read.execute(`select defaults from workspaces where owner_id = 'ann'`);
    expect(workspace!.defaults).toEqual({ voting_system: 'custom', custom_deck_values: [COMPOSED, 'XL'] });
    await now.close();
    await db.drop();
  });
});

describe('folder and template names kept before they were told apart by the unit', () => {
  it('are one name per owner in any case beyond ASCII, in a database made with the C locale too', async () => {
    // A database whose lower() lowers only ASCII letters, as initdb makes it where no locale is set.
    const url = withDatabaseName(testServerUrl(), `test_sessions_c_${randomBytes(4).toString('hex')}`);
    await runStatement(
      withDatabaseName(url, 'postgres'),
      `create database "${new URL(url).pathname.slice(1)}" template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`,
    );
    const logger = createLogger({ name: 'sessions-names-test', level: 'silent' });
    const before = migrations.filter((m) => m.name !== '0007-name-keys');
    const old = await createDatabase({ url, entities: [], migrations: before, logger });
    const folder = (name: string) =>
      old
        .fork()
        .getConnection()
        .execute(
          `insert into folders (owner_id, name, color, created_at, updated_at) values ('ann', ?, '#000000', now(), now())`,
          [name],
        );
    // Under the C locale the old index took both.
    await folder('Équipe');
    await folder('équipe');
    await folder('Other');
    await old.close();

    const now = await createDatabase({ url, entities: [], migrations, logger });
    const sql = now.fork().getConnection();
    const names = (await sql.execute('select name, name_key from folders order by id')) as Array<{
      name: string;
      name_key: string;
    }>;
    expect(names.map((n) => n.name)).toEqual(['Équipe', 'équipe (2)', 'Other']);
    expect(names.map((n) => n.name_key)).toEqual(['équipe', 'équipe (2)', 'other']);
    await expect(
      sql.execute(
        `insert into folders (owner_id, name, name_key, color, created_at, updated_at) values ('ann', 'ÉQUIPE', 'équipe', '#000000', now(), now())`,
      ),
    ).rejects.toThrow(/folders_owner_name_unique/);
    await now.close();
    await dropDatabase(url);
  });
});

describe('the room history kept before its indexes were slimmed', () => {
  it('keeps its rows, is keyed by the event id and is pruned by age as before', async () => {
    const db = await createTestDatabase('sessions-room-indexes');
    const logger = createLogger({ name: 'sessions-room-indexes-test', level: 'silent' });
    const before = migrations.filter((m) => m.name !== '0012-room-event-indexes');
    const old = await createDatabase({ url: db.url, entities: [], migrations: before, logger });
    const session = '8a6e0804-2bd0-4672-b79d-d97027f90721';
    const row = (id: string, age: string) =>
      old
        .fork()
        .getConnection()
        .execute(
          `insert into room_events (event_id, session_id, type, payload, occurred_at)
           values (?, ?, 'participant.joined', '{}'::jsonb, now() - ?::interval)`,
          [id, session, age],
        );
    await row('8a6e0804-2bd0-4672-b79d-d97027f90731', '2 days');
    await row('8a6e0804-2bd0-4672-b79d-d97027f90732', '1 minute');
    await old.close();

    const now = await createDatabase({ url: db.url, entities: [], migrations, logger });
    const sql = now.fork().getConnection();
    const key = (await sql.execute(
      `select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = 'room_events'::regclass and i.indisprimary`,
    )) as Array<{ attname: string }>;
    expect(key.map((k) => k.attname)).toEqual(['event_id']);
    const indexes = (await sql.execute(
      `select indexname from pg_indexes where tablename = 'room_events' order by indexname`,
    )) as Array<{ indexname: string }>;
    expect(indexes.map((i) => i.indexname)).toEqual([
      'room_events_occurred_brin',
      'room_events_pkey',
      'room_events_session_idx',
    ]);
    // An event recorded twice is still one row; the rows keep their order.
    await sql.execute(
      `insert into room_events (event_id, session_id, type, payload, occurred_at)
       values ('8a6e0804-2bd0-4672-b79d-d97027f90732', ?, 'participant.joined', '{}'::jsonb, now())
       on conflict (event_id) do nothing`,
      [session],
    );
    const rows = (await sql.execute(`select event_id from room_events order by seq`)) as Array<{
      event_id: string;
    }>;
    expect(rows.map((r) => r.event_id)).toEqual([
      '8a6e0804-2bd0-4672-b79d-d97027f90731',
      '8a6e0804-2bd0-4672-b79d-d97027f90732',
    ]);
    const pruned = (await sql.execute(
      `delete from room_events where occurred_at < now() - interval '1 day' returning event_id`,
    )) as Array<{ event_id: string }>;
    expect(pruned.map((r) => r.event_id)).toEqual(['8a6e0804-2bd0-4672-b79d-d97027f90731']);
    await now.close();
    await db.drop();
  });
});
