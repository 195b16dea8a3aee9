import { until } from '@pp/testing';
import type { IdentityHarness } from './support/identity-harness.ts';
import { startWithSignOn } from './support/sign-on.ts';
import { followSignOn } from './support/oauth-flow.ts';

let identity: IdentityHarness;
const sql = (query: string, params: unknown[] = []) =>
  identity.db.fork().getConnection().execute(query, params) as Promise<Array<Record<string, unknown>>>;
const stateIds = async () => (await sql('select id from oauth_states order by id')).map((r) => r.id);

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ identity, stop } = await startWithSignOn({ OAUTH_STATE_SWEEP_MS: '100' }));
});
afterAll(() => stop());

describe('identity: expired sign-on states', () => {
  it('are swept by a background task, more than a batch of them, when no callback comes', async () => {
    // Sign-ons started and abandoned at the provider: one still waiting, the others expired long ago.
    const waiting = (await followSignOn(identity.url, 'github')).callbackQuery.get('state')!.split('.')[0];
    await sql(
      `insert into oauth_states (id, provider, code_verifier, browser_hash, created_at, expires_at)
       select gen_random_uuid(), 'github', 'v', repeat('0', 64), now() - interval '2 hours',
              now() - interval '1 hour'
       from generate_series(1, 1500)`,
    );
    expect(await stateIds()).toHaveLength(1501);
    await until(async () => (await stateIds()).length === 1);
    expect(await stateIds()).toEqual([waiting]);
  });
});
