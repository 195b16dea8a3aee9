import { createDatabase } from '@pp/db';
import { createLogger } from '@pp/logger';
import { createTestDatabase } from '@pp/testing';
import { migrations } from '../src/db/migrations/index.ts';
import { rooms } from './support/room.ts';
import { asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

/** é as one character (U+00E9), and as e followed by a combining acute accent (U+0301). */
const COMPOSED = '\u00e9';
const DECOMPOSED = 'e\u0301';

describe('text as people type it', () => {
  it('takes a vote for a card typed in either Unicode spelling, and keeps it as the card', async () => {
    const session = await r.createSession('ann', {
      voting_system: 'custom',
      custom_deck_values: [`caf${DECOMPOSED}`, 'thé', 'XL'],
    });
    expect(session).toMatchObject({ custom_deck_values: [`caf${COMPOSED}`, 'th\u00e9', 'XL'] });
    const bob = await r.join(session.code, 'Bob');
    await r.openStory(session);
    for (const typed of [`caf${COMPOSED}`, `caf${DECOMPOSED}`]) {
      const res = await r.vote(session.code, bob.id, typed);
      expect(res.status).toBe(200);
      expect(res.body.vote.value).toBe(`caf${COMPOSED}`);
    }
    const other = await r.vote(session.code, bob.id, 'cafe');
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual({
      vote: [`must be one of the session's cards: caf${COMPOSED}, thé, XL`],
    });
  });

  it('refuses a deck whose cards are one card in two spellings', async () => {
    const res = await h.client.post('/sessions', {
      body: { name: 'Decks', voting_system: 'custom', custom_deck_values: [COMPOSED, DECOMPOSED] },
      headers: asUser('ann'),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ custom_deck_values: ['cards must be unique'] });
  });

  it('counts a name in characters, as its documented maxLength does: 200 emoji, not 100', async () => {
    const emoji = (n: number) => '😀'.repeat(n);
    const created = await r.createSession('ann', { name: emoji(200) });
    expect(created).toMatchObject({ name: emoji(200) });
    const longer = await h.client.post('/sessions', { body: { name: emoji(201) }, headers: asUser('ann') });
    expect(longer.status).toBe(422);
    expect(longer.body.errors).toEqual({ name: ['Too big: expected string to have <=200 characters'] });
    // A card is up to 12 characters: 12 emoji.
    const deck = await r.createSession('ann', {
      voting_system: 'custom',
      custom_deck_values: [emoji(12), emoji(1)],
    });
    expect(deck).toMatchObject({ custom_deck_values: [emoji(12), emoji(1)] });
  });
});

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
