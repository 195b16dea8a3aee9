/**
 * Tokens that ended, expired or revoked, are forgotten 30 days later by a background task, found
 * through the moment each ended among every working token, never by reading the table whole.
 */
import { createDatabase, withOwnConnection, type Database } from '@pp/db';
import { createLogger } from '@pp/logger';
import { api, createTestDatabase, readsBeyond, tableReads, until, type TestDatabase } from '@pp/testing';
import { DELETE_ENDED_TOKENS_SQL } from '../src/db/token.repository.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { ENDED_TOKEN_DAYS } from '../src/use-cases/forget-ended-tokens.use-case.ts';
import { asService, startIdentity, type IdentityHarness } from './support/identity-harness.ts';

/** `count` tokens of the user; each column's value an SQL expression (`k` numbers them from 1). */
const insertTokens = (
  sql: (text: string, values?: unknown[]) => Promise<unknown>,
  user: string,
  count: number,
  columns: { expires: string; revoked: string; kind?: string },
) =>
  sql(
    `insert into tokens (id, user_id, kind, name, secret_hash, prefix, created_at, expires_at, revoked_at)
     select gen_random_uuid(), $1, '${columns.kind ?? 'access'}', 'sign-in', md5(random()::text) || md5(random()::text),
            'pp_at_', now() - interval '60 days', ${columns.expires}, ${columns.revoked}
       from generate_series(1, $2) k`,
    [user, count],
  );
const insertUser = (sql: (text: string, values?: unknown[]) => Promise<unknown>, id: string, email: string) =>
  sql(
    `insert into users (id, email, name, created_at, updated_at) values ($1, $2, 'User', now(), now())
     on conflict do nothing`,
    [id, email],
  );

describe('identity: tokens that ended long ago', () => {
  let identity: IdentityHarness;
  const client = api(() => identity.url);
  const sql = (text: string, values: unknown[] = []) =>
    withOwnConnection(identity.config.DATABASE_URL, async (c) => (await c.query(text, values)).rows);
  const introspect = (token: string) =>
    client.post('/internal/tokens/introspect', { body: { token }, headers: asService() });

  beforeAll(async () => {
    identity = await startIdentity({ ENDED_TOKEN_SWEEP_MS: '100' });
  });
  afterAll(() => identity.stop());

  it('are forgotten 30 days after they ended, more than a batch of them; the others stay and work', async () => {
    const signedUp = await client.post('/auth/register', {
      body: { email: 'ann@example.com', password: 'password1', name: 'Ann' },
    });
    const ann = signedUp.body.user.id as string;
    // Sign-ins of long ago, expired 40 days back; one revoked 31 days ago; one expired 10 days ago.
    await insertTokens(sql, ann, 1_500, { expires: "now() - interval '40 days'", revoked: 'null' });
    await insertTokens(sql, ann, 1, { expires: 'null', revoked: "now() - interval '31 days'", kind: 'api' });
    await insertTokens(sql, ann, 1, { expires: "now() - interval '10 days'", revoked: 'null' });
    const left = async () =>
      Number((await sql('select count(*)::int as n from tokens where user_id = $1', [ann]))[0]!.n);
    await until(async () => (await left()) === 2);
    // The recently expired one and Ann's working access token.
    expect(
      await sql('select expires_at > now() as working from tokens where user_id = $1 order by expires_at', [
        ann,
      ]),
    ).toEqual([{ working: false }, { working: true }]);
    expect((await introspect(signedUp.body.token as string)).body).toMatchObject({
      active: true,
      identity: { sub: ann },
    });
  });
});

describe('identity: the sweep’s statement among every working token', () => {
  let test: TestDatabase;
  let db: Database;
  const sql = (text: string, values: unknown[] = []) =>
    withOwnConnection(test.url, async (client) => (await client.query(text, values)).rows);

  beforeAll(async () => {
    test = await createTestDatabase('identity-ended-tokens');
    db = await createDatabase({
      url: test.url,
      entities: [],
      migrations,
      logger: createLogger({ name: 'ended-tokens-test', level: 'silent' }),
    });
    const [ann, others] = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
    await insertUser(sql, ann, 'ann@example.com');
    await insertUser(sql, others, 'others@example.com');
    await insertTokens(sql, ann, 1_500, { expires: "now() - interval '40 days'", revoked: 'null' });
    await insertTokens(sql, others, 100_000, { expires: "now() + k * interval '1 second'", revoked: 'null' });
  });
  afterAll(async () => {
    await db.close();
    await test.drop();
  });

  it('takes a batch of those that ended first, through the moment each ended', async () => {
    const cutoff = new Date(Date.now() - ENDED_TOKEN_DAYS * 86_400_000);
    const { rowCount, reads } = await tableReads(
      test.url,
      { text: DELETE_ENDED_TOKENS_SQL, values: [1_000, cutoff] },
      ['tokens'],
    );
    expect(rowCount).toBe(1_000);
    // The batch's rows, once through the index of when they ended and once more by key to delete them.
    expect(readsBeyond(reads, 2_100)).toEqual([]);
  });
});
