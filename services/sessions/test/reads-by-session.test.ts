/**
 * Statements off the vote's path that reach growing tables by a session or a participant: each reads
 * the rows it is about, among tens of thousands of other sessions' rows, and never a table whole.
 */
import { randomUUID } from 'node:crypto';
import { createDatabase, withOwnConnection } from '@pp/db';
import { createLogger } from '@pp/logger';
import { createTestDatabase, readsBeyond, tableReads, type TestDatabase } from '@pp/testing';
import { migrations } from '../src/db/migrations/index.ts';
import { LEFT_WITHOUT_STREAM_SQL } from '../src/db/presence.repository.ts';
import {
  DELETE_OPEN_VOTES_SQL,
  LOCK_UNSEALED_ROUNDS_SQL,
  UNSEALED_VOTES_SQL,
} from '../src/db/vote.repository.ts';

const logger = createLogger({ name: 'reads-by-session-test', level: 'silent' });
/** Other sessions, each with two participants (in the room in one session of fifty) and three rounds. */
const OTHERS = 20_000;
/** At most what a statement about one session may read of a table here (its own rows, and an index's neighbours). */
const ITS_OWN = 20;

describe('reads by session and participant among many sessions', () => {
  let db: TestDatabase;
  const session = randomUUID();
  const provisional = randomUUID();
  const [sealed, open, kept] = [randomUUID(), randomUUID(), randomUUID()];
  let ann: number;
  let bob: number;

  beforeAll(async () => {
    db = await createTestDatabase('sessions-reads');
    await (await createDatabase({ url: db.url, entities: [], migrations, logger })).close();
    await withOwnConnection(db.url, async (client) => {
      const sql = async (text: string, values: unknown[] = []) => (await client.query(text, values)).rows;
      await sql(`insert into sessions (id, code, owner_id, name, status, voting_system, created_at, updated_at)
        select gen_random_uuid(), 'O' || lpad(n::text, 5, '0'), 'owner', 'Other', 'active', 'fibonacci', now(), now()
          from generate_series(1, ${OTHERS}) n`);
      await sql(`insert into participants (session_id, name, role, token_hash, joined_at)
        select s.id, 'P' || k, 'participant', repeat('0', 64), now() from sessions s, generate_series(1, 2) k`);
      await sql(`insert into rounds (id, session_id, title, status, position, sealed)
        select gen_random_uuid(), s.id, 'R' || k, case k when 3 then 'voting' else 'revealed' end, k, k < 3
          from sessions s, generate_series(1, 3) k`);
      await sql(`insert into votes (story_id, participant_id, value, created_at, updated_at)
        select r.id, p.id, '5', now(), now() from rounds r join participants p on p.session_id = r.session_id`);
      await sql(`insert into room_presence (participant_id, session_id, connected)
        select id, session_id, id % 100 = 0 from participants`);
      await sql(`insert into room_streams (stream_id, session_id, participant_id, seen_at)
        select gen_random_uuid(), session_id, participant_id, now() from room_presence where connected`);

      // The sessions these statements are about: ours (a sealed round, the open one, one kept unsealed,
      // Ann in the room without a stream any more), and a provisional one to delete.
      for (const [id, code, since] of [
        [session, 'OURS01', null],
        [provisional, 'PROV01', new Date()],
      ] as const) {
        await sql(
          `insert into sessions (id, code, owner_id, name, status, voting_system, created_at, updated_at, provisional_since)
           values ($1, $2, 'ann', 'Ours', 'active', 'fibonacci', now(), now(), $3)`,
          [id, code, since],
        );
        await sql(
          `insert into rounds (id, session_id, title, status, position, sealed)
           values (gen_random_uuid(), $1, 'Its round', 'revealed', 1, true)`,
          [id],
        );
      }
      const voter = async (name: string, sessionId = session) =>
        (
          await sql(
            `insert into participants (session_id, name, role, token_hash, joined_at)
             values ($1, $2, 'participant', repeat('0', 64), now()) returning id`,
            [sessionId, name],
          )
        )[0]!.id as number;
      [ann, bob] = [await voter('Ann'), await voter('Bob')];
      await voter('Pat', provisional);
      for (const [id, title, status, isSealed] of [
        [sealed, 'Sealed', 'revealed', true],
        [open, 'Open', 'voting', false],
        [kept, 'Kept', 'pending', false],
      ] as const)
        await sql(
          `insert into rounds (id, session_id, title, status, position, sealed) values ($1, $2, $3, $4, 2, $5)`,
          [id, session, title, status, isSealed],
        );
      for (const [story, participant, value] of [
        [sealed, ann, '3'],
        [sealed, bob, '5'],
        [open, ann, '8'],
        [open, bob, '13'],
        [kept, ann, '2'],
      ] as const)
        await sql(
          `insert into votes (story_id, participant_id, value, created_at, updated_at) values ($1, $2, $3, now(), now())`,
          [story, participant, value],
        );
      await sql(`insert into room_presence (participant_id, session_id, connected) values ($1, $2, true)`, [
        ann,
        session,
      ]);
    });
  });
  afterAll(() => db.drop());

  it('the presence sweep reads the participants in the room only, and finds the one without a stream', async () => {
    const live = new Date(Date.now() - 30_000);
    const { rows, reads } = await tableReads(
      db.url,
      { text: LEFT_WITHOUT_STREAM_SQL, values: [live, live, 100] },
      ['room_presence'],
    );
    expect(rows).toEqual([{ participant_id: ann }]);
    // 400 others are in the room; 40,000 participants ever opened it.
    expect(readsBeyond(reads, OTHERS / 50 + ITS_OWN)).toEqual([]);
  });

  it('a participant leaving loses the votes of its unsealed rounds, each round looked up by its key', async () => {
    const { rowCount, reads } = await tableReads(db.url, { text: DELETE_OPEN_VOTES_SQL, values: [ann] }, [
      'rounds',
      'votes',
    ]);
    expect(rowCount).toBe(2);
    expect(readsBeyond(reads, ITS_OWN)).toEqual([]);
  });

  it('a change of the deck locks and reads the session’s unsealed rounds only', async () => {
    const locked = await tableReads(db.url, { text: LOCK_UNSEALED_ROUNDS_SQL, values: [session] }, [
      'rounds',
    ]);
    expect(locked.rows.map((r) => r.id).sort()).toEqual([open, kept].sort());
    const votes = await tableReads(db.url, { text: UNSEALED_VOTES_SQL, values: [session] }, [
      'rounds',
      'votes',
    ]);
    expect(votes.rows).toEqual([
      { story_id: kept, title: 'Kept', value: '2' },
      { story_id: open, title: 'Open', value: '13' },
      { story_id: open, title: 'Open', value: '8' },
    ]);
    for (const { reads } of [locked, votes]) expect(readsBeyond(reads, ITS_OWN)).toEqual([]);
  });

  it('deleting a session finds its rounds and participants by index', async () => {
    const { rowCount, reads } = await tableReads(
      db.url,
      { text: 'delete from sessions where provisional_since is not null and id = $1', values: [provisional] },
      ['participants', 'rounds'],
    );
    expect(rowCount).toBe(1);
    expect(readsBeyond(reads, ITS_OWN)).toEqual([]);
  });
});
