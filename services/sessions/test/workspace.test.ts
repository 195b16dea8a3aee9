import { randomUUID } from 'node:crypto';
import { asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
beforeAll(async () => {
  h = await startSessions();
});
afterAll(() => h.stop());

const BUILT_IN = {
  voting_system: 'fibonacci',
  custom_deck_name: null,
  custom_deck_values: null,
  record_vote_names: false,
  voteby_enabled: false,
  vote_by_minutes: 60,
  auto_reveal: false,
  require_participant_token: false,
};
const getWorkspace = (user: string) => h.client.get('/workspace', { headers: asUser(user) });
const patchWorkspace = (user: string, body: unknown) =>
  h.client.patch('/workspace', { body, headers: asUser(user) });
const createSession = async (user: string, body: Record<string, unknown> = {}) => {
  const res = await h.client.post('/sessions', { body: { name: 'Sprint', ...body }, headers: asUser(user) });
  if (res.status !== 201) throw new Error(`create session answered ${res.status}: ${res.text}`);
  return res.body.session;
};

describe('the workspace', () => {
  it('is made on first use with the built-in defaults, and is the same one afterwards', async () => {
    const owner = randomUUID();
    const first = await getWorkspace(owner);
    expect(first.status).toBe(200);
    expect(first.body.workspace).toEqual({
      id: expect.any(Number),
      name: 'My workspace',
      defaults: BUILT_IN,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await getWorkspace(owner)).body.workspace.id).toBe(first.body.workspace.id);
    expect((await getWorkspace(randomUUID())).body.workspace.id).not.toBe(first.body.workspace.id);
  });

  it('is made once when the first requests come at once', async () => {
    const owner = randomUUID();
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () => getWorkspace(owner)),
      ...Array.from({ length: 4 }, () => patchWorkspace(owner, { name: 'Team' })),
      ...Array.from({ length: 4 }, (_, i) =>
        h.client.post('/sessions', { body: { name: `S${i}` }, headers: asUser(owner) }),
      ),
    ]);
    expect(answers.map((a) => a.status)).toEqual([...Array(12).fill(200), ...Array(4).fill(201)]);
    const ids = new Set(answers.map((a) => a.body.workspace?.id ?? a.body.session.workspace_id));
    expect(ids.size).toBe(1);
    const rows = (await h.runtime.db
      .fork()
      .getConnection()
      .execute('select id from workspaces where owner_id = ?', [owner])) as Array<{ id: number }>;
    expect(rows).toEqual([{ id: [...ids][0] }]);
  });

  it('changes its name and the defaults a body names, keeping the others', async () => {
    const owner = randomUUID();
    const res = await patchWorkspace(owner, {
      name: 'Platform team',
      defaults: { voting_system: 'tshirt', record_vote_names: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.workspace).toMatchObject({
      name: 'Platform team',
      defaults: { ...BUILT_IN, voting_system: 'tshirt', record_vote_names: true },
    });
    const again = await patchWorkspace(owner, { defaults: { auto_reveal: true } });
    expect(again.body.workspace.defaults).toEqual({
      ...BUILT_IN,
      voting_system: 'tshirt',
      record_vote_names: true,
      auto_reveal: true,
    });
    expect((await getWorkspace(owner)).body.workspace).toEqual(again.body.workspace);
  });

  it('gives a new session its defaults, and what the request names wins over them', async () => {
    const owner = randomUUID();
    const workspace = (
      await patchWorkspace(owner, {
        defaults: {
          voting_system: 'custom',
          custom_deck_name: 'Days',
          custom_deck_values: ['1d', '2d', '3d'],
          record_vote_names: true,
          auto_reveal: true,
        },
      })
    ).body.workspace;
    const plain = await createSession(owner);
    expect(plain).toMatchObject({
      workspace_id: workspace.id,
      voting_system: 'custom',
      custom_deck_name: 'Days',
      deck: ['1d', '2d', '3d'],
      record_vote_names: true,
      auto_reveal: true,
      voteby_enabled: false,
      require_participant_token: false,
    });
    const named = await createSession(owner, { voting_system: 'tshirt', record_vote_names: false });
    expect(named).toMatchObject({
      voting_system: 'tshirt',
      deck: ['XS', 'S', 'M', 'L', 'XL', 'XXL', '?', 'coffee'],
      record_vote_names: false,
      auto_reveal: true,
    });
    // Defaults apply when a session is made; changing them later leaves the sessions as they are.
    await patchWorkspace(owner, { defaults: { auto_reveal: false } });
    const looked = await h.client.get(`/sessions/${plain.code}`, { headers: asUser(owner) });
    expect(looked.body.session.auto_reveal).toBe(true);
  });

  it('gives a session a deadline vote_by_minutes after its creation when the defaults switch vote-by on', async () => {
    const owner = randomUUID();
    await patchWorkspace(owner, { defaults: { voteby_enabled: true, vote_by_minutes: 30 } });
    const before = Date.now();
    const session = await createSession(owner);
    expect(session.voteby_enabled).toBe(true);
    const deadline = Date.parse(session.vote_by_at);
    expect(deadline).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1_000);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 30 * 60_000 + 1_000);
    const given = new Date(Date.now() + 5 * 60_000).toISOString();
    expect((await createSession(owner, { vote_by_at: given })).vote_by_at).toBe(given);
    expect((await createSession(owner, { voteby_enabled: false })).vote_by_at).toBeNull();
  });

  it('puts a session only in its owner’s workspace (403 for another’s, 404 for none), or in none', async () => {
    const owner = randomUUID();
    const theirs = (await getWorkspace(randomUUID())).body.workspace.id;
    const refused = await h.client.post('/sessions', {
      body: { name: 'x', workspace_id: theirs },
      headers: asUser(owner),
    });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'forbidden']);
    const unknown = await h.client.post('/sessions', {
      body: { name: 'x', workspace_id: 2_000_000_000 },
      headers: asUser(owner),
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'workspace_not_found']);
    const session = await createSession(owner, { workspace_id: null });
    expect(session.workspace_id).toBeNull();
    const patched = await h.client.patch(`/sessions/${session.code}`, {
      body: { workspace_id: theirs },
      headers: asUser(owner),
    });
    expect(patched.status).toBe(403);
    const own = (await getWorkspace(owner)).body.workspace.id;
    const moved = await h.client.patch(`/sessions/${session.code}`, {
      body: { workspace_id: own },
      headers: asUser(owner),
    });
    expect(moved.body.session.workspace_id).toBe(own);
  });

  it('refuses bad input with 422 naming the field, and nobody with 401', async () => {
    const owner = randomUUID();
    const cases: Array<[unknown, string]> = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 7 }, 'name'],
      [{ name: 'nul\u0000' }, 'name'],
      [{ defaults: { voting_system: 'custom' } }, 'defaults.custom_deck_values'],
      [{ defaults: { voting_system: 'planets' } }, 'defaults.voting_system'],
      [{ defaults: { vote_by_minutes: 0 } }, 'defaults.vote_by_minutes'],
      [{ defaults: { vote_by_minutes: 1e12 } }, 'defaults.vote_by_minutes'],
      [{ defaults: { record_vote_names: 'yes' } }, 'defaults.record_vote_names'],
      [{ defaults: { custom_deck_values: ['a', 'a'] } }, 'defaults.custom_deck_values'],
      [{ defaults: 'tshirt' }, 'defaults'],
    ];
    for (const [body, field] of cases) {
      const res = await patchWorkspace(owner, body);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    for (const body of [{ id: 3 }, { defaults: { vote_by_at: '2030-01-01T00:00:00Z' } }]) {
      expect((await patchWorkspace(owner, body)).status).toBe(422);
    }
    expect((await getWorkspace(owner)).body.workspace.defaults).toEqual(BUILT_IN);
    expect((await h.client.get('/workspace')).status).toBe(401);
    expect((await h.client.patch('/workspace', { body: { name: 'x' } })).status).toBe(401);
  });
});
