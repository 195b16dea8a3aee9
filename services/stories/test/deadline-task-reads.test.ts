/**
 * What the deadline task reads each time it polls: what is due, found by index, whatever the number of
 * open stories of other sessions; and which stories it finds due.
 */
import { randomUUID } from 'node:crypto';
import { createDatabase } from '@pp/db';
import { createLogger } from '@pp/logger';
import { createTestDatabase, readsBeyond, tableReads, type TestDatabase } from '@pp/testing';
import { migrations } from '../src/db/migrations/index.ts';
import { OVERDUE_SQL } from '../src/db/story.repository.ts';

const logger = createLogger({ name: 'deadline-reads-test', level: 'silent' });
const MINUTE = 60_000;

interface Seed {
  voteby?: boolean;
  voteByAt?: Date | null;
  archived?: boolean;
  /** The session's story: its status and when it was opened. */
  story?: { status: 'voting' | 'revealed'; openedAt: Date | null };
}

describe('the deadline task’s poll', () => {
  let db: TestDatabase;
  const now = new Date();
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const ids: Record<string, { session: string; story: string }> = {};

  beforeAll(async () => {
    db = await createTestDatabase('stories-due');
    // Sessions and stories as they were before the read model knew when each current story was opened.
    const before = migrations.filter((m) => m.name !== '0009-deadline-due');
    const old = await createDatabase({ url: db.url, entities: [], migrations: before, logger });
    const sql = old.fork().getConnection();
    const seed = async (name: string, s: Seed) => {
      const session = randomUUID();
      const story = randomUUID();
      ids[name] = { session, story };
      await sql.execute(
        `insert into sessions (id, code, owner_id, name, status, voting_system, deck, record_vote_names,
           auto_reveal, voteby_enabled, vote_by_at, updated_at)
         values (?, ?, 'ann', ?, ?, 'fibonacci', '["1","2","3"]', false, false, ?, ?, now())`,
        [
          session,
          name.slice(0, 16),
          name,
          s.archived ? 'archived' : 'active',
          s.voteby ?? true,
          s.voteByAt ?? null,
        ],
      );
      if (s.story)
        await sql.execute(
          `insert into stories (id, session_id, title, status, position, voting_started_at, created_at, updated_at)
           values (?, ?, 'A story', ?, 1, ?, now(), now())`,
          [story, session, s.story.status, s.story.openedAt],
        );
    };
    // Many sessions with an open story: none due, with no deadline or with one ahead.
    await sql.execute(
      `with made as (
         insert into sessions (id, code, owner_id, name, status, voting_system, deck, record_vote_names,
           auto_reveal, voteby_enabled, vote_by_at, updated_at)
         select gen_random_uuid(), 'Q' || n, 'ann', 'Quiet', 'active', 'fibonacci', '["1"]', false, false,
                n % 3 = 0, case when n % 3 = 0 then ?::timestamptz end, now()
           from generate_series(1, 600) n
         returning id)
       insert into stories (id, session_id, title, status, position, voting_started_at, created_at, updated_at)
       select gen_random_uuid(), id, 'Open', 'voting', 1, ?::timestamptz, now(), now() from made`,
      [new Date(now.getTime() + 60 * MINUTE), ago(60 * MINUTE)],
    );
    await seed('due', { voteByAt: ago(2 * MINUTE), story: { status: 'voting', openedAt: ago(10 * MINUTE) } });
    await seed('unstamped', { voteByAt: ago(MINUTE), story: { status: 'voting', openedAt: null } });
    await seed('opened after', {
      voteByAt: ago(2 * MINUTE),
      story: { status: 'voting', openedAt: ago(MINUTE) },
    });
    await seed('archived', {
      voteByAt: ago(2 * MINUTE),
      archived: true,
      story: { status: 'voting', openedAt: ago(10 * MINUTE) },
    });
    await seed('switched off', {
      voteby: false,
      voteByAt: ago(2 * MINUTE),
      story: { status: 'voting', openedAt: ago(10 * MINUTE) },
    });
    await seed('revealed', {
      voteByAt: ago(2 * MINUTE),
      story: { status: 'revealed', openedAt: ago(10 * MINUTE) },
    });
    await seed('ahead', {
      voteByAt: new Date(now.getTime() + MINUTE),
      story: { status: 'voting', openedAt: ago(MINUTE) },
    });
    // Countdowns: past zero on an open round, past zero on a round revealed meanwhile, ahead, tried.
    await seed('counting', { voteby: false, story: { status: 'voting', openedAt: ago(MINUTE) } });
    await seed('counted', { voteby: false, story: { status: 'revealed', openedAt: ago(MINUTE) } });
    await seed('counting on', { voteby: false, story: { status: 'voting', openedAt: ago(MINUTE) } });
    await seed('tried', { voteby: false, story: { status: 'voting', openedAt: ago(MINUTE) } });
    for (const [name, at] of [
      ['counting', ago(30_000)],
      ['counted', ago(20_000)],
      ['counting on', new Date(now.getTime() + 30_000)],
      ['tried', null],
    ] as const)
      await sql.execute(
        'insert into round_countdowns (story_id, session_id, reveal_at, set_at) values (?, ?, ?, ?)',
        [ids[name]!.story, ids[name]!.session, at, ago(MINUTE)],
      );
    await old.close();
    // The read model as the unit migrates it: each session's current story's opening kept with it.
    await (await createDatabase({ url: db.url, entities: [], migrations, logger })).close();
  });
  afterAll(() => db.drop());

  it('finds the stories due, and reads the due ones only, by index, among hundreds of open stories', async () => {
    const { rows, reads } = await tableReads(db.url, { text: OVERDUE_SQL, values: [now, 50] }, [
      'sessions',
      'stories',
    ]);
    expect(rows).toEqual([
      { id: ids.due!.story, reveal_at: null, due: ago(2 * MINUTE), open: true },
      { id: ids.unstamped!.story, reveal_at: null, due: ago(MINUTE), open: true },
      { id: ids.counting!.story, reveal_at: ago(30_000), due: ago(30_000), open: true },
      { id: ids.counted!.story, reveal_at: ago(20_000), due: ago(20_000), open: false },
    ]);
    // Two due sessions and their stories, two countdowns' stories and their sessions (a poll that went
    // through every open story read 600 and more of each).
    expect(readsBeyond(reads, 6)).toEqual([]);
  });
});
