import { createHmac } from 'node:crypto';
import { signIdentity } from '@pp/http';
import { until } from '@pp/testing';
import { rooms } from './support/room.ts';
import {
  asService,
  asUser,
  INTERNAL_KEY,
  startSessions,
  type SessionsHarness,
} from './support/sessions-harness.ts';

let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/;
const patch = (code: string, body: unknown, user = 'ann') =>
  h.client.patch(`/sessions/${code}`, { body, headers: asUser(user) });
let folders = 0;
const newFolder = async (owner = 'ann') =>
  (
    await h.client.post('/folders', {
      body: { name: `Folder ${++folders}`, color: '#336699' },
      headers: asUser(owner),
    })
  ).body.folder.id as number;

describe('sessions: create and look up', () => {
  it('creates an active session with a 6-character code from the unambiguous alphabet', async () => {
    const folder = await newFolder();
    const res = await h.client.post('/sessions', {
      body: { name: 'Sprint 1', description: 'Planning', folder_id: folder },
      headers: asUser('ann'),
    });
    expect(res.status).toBe(201);
    expect(res.body.session).toMatchObject({
      name: 'Sprint 1',
      description: 'Planning',
      folder_id: folder,
      status: 'active',
      owner_id: 'ann',
      voting_system: 'fibonacci',
      deck: ['0', '0.5', '1', '2', '3', '5', '8', '13', '20', '40', '100', '?', 'coffee'],
    });
    expect(res.body.session.code).toMatch(CODE);
    expect(res.body.data.session).toEqual(res.body.session);
    expect(Date.parse(res.body.session.created_at)).not.toBeNaN();
  });

  it('gives every session a different code', async () => {
    const created = await Promise.all(Array.from({ length: 30 }, () => r.createSession('ann')));
    expect(new Set(created.map((s) => s.code)).size).toBe(30);
  });

  it('refuses creation without a name, with a name over 200 characters, or anonymously', async () => {
    const noName = await h.client.post('/sessions', { body: {}, headers: asUser('ann') });
    expect(noName.status).toBe(422);
    expect(noName.body.errors).toHaveProperty('name');
    const long = await h.client.post('/sessions', {
      body: { name: 'x'.repeat(201) },
      headers: asUser('ann'),
    });
    expect(long.status).toBe(422);
    const anonymous = await h.client.post('/sessions', { body: { name: 'x' } });
    expect(anonymous.status).toBe(401);
  });

  it('shows the public fields to everyone and the full record to the owner, whatever the case of the code', async () => {
    const session = await r.createSession('ann', { description: 'secret plans' });
    const anonymous = await h.client.get(`/sessions/${session.code.toLowerCase()}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.session).toMatchObject({
      id: session.id,
      code: session.code,
      status: 'active',
      participants_count: 0,
      current_story: null,
    });
    expect(anonymous.body.session).not.toHaveProperty('description');
    expect(anonymous.body.session).not.toHaveProperty('owner_id');
    const stranger = await h.client.get(`/sessions/${session.code}`, { headers: asUser('bob') });
    expect(stranger.body.session).not.toHaveProperty('description');
    const owner = await h.client.get(`/sessions/${session.code.toLowerCase()}`, { headers: asUser('ann') });
    expect(owner.body.session).toMatchObject({
      description: 'secret plans',
      owner_id: 'ann',
      record_vote_names: false,
    });
  });

  it('gives the owner the same full record the create answered: dates, custom deck and deadline', async () => {
    const created = await h.client.post('/sessions', {
      body: {
        name: 'Full',
        voting_system: 'custom',
        custom_deck_name: 'Sizes',
        custom_deck_values: ['S', 'M', 'L'],
        voteby_enabled: true,
        vote_by_at: new Date(Date.now() + 3600_000).toISOString(),
        auto_reveal: true,
      },
      headers: asUser('ann'),
    });
    expect(created.status).toBe(201);
    const looked = await h.client.get(`/sessions/${created.body.session.code}`, { headers: asUser('ann') });
    expect(looked.body.session).toEqual(created.body.session);
    expect(looked.body.session.deck).toEqual(['S', 'M', 'L']);
    expect(Date.parse(looked.body.session.vote_by_at)).toBeGreaterThan(Date.now());
  });

  it('keeps answering the lookup when a column is added to sessions under the running service', async () => {
    const session = await r.createSession('ann');
    const lookUp = async () => (await h.client.get(`/sessions/${session.code}`)).status;
    for (let i = 0; i < 5; i++) expect(await lookUp()).toBe(200); // prepared on the pooled connections
    const conn = h.runtime.db.fork().getConnection();
    await conn.execute('alter table sessions add column added_later int');
    try {
      for (let i = 0; i < 5; i++) expect(await lookUp()).toBe(200);
    } finally {
      await conn.execute('alter table sessions drop column added_later');
    }
  });

  it('answers 404 for an unknown code or one that cannot be a code', async () => {
    expect((await h.client.get('/sessions/ZZZZZZ')).body.error.code).toBe('session_not_found');
    expect((await h.client.get('/sessions/not-a-code')).status).toBe(404);
  });

  it('announces session.created with the snapshot other units keep', async () => {
    const session = await r.createSession('ann', { voting_system: 'tshirt', auto_reveal: true });
    const event = await until(async () =>
      h.eventsOf('session.created').find((e) => e.data.session.id === session.id),
    );
    expect(event.data.session).toMatchObject({
      code: session.code,
      owner_id: 'ann',
      status: 'active',
      deck: ['XS', 'S', 'M', 'L', 'XL', 'XXL', '?', 'coffee'],
      auto_reveal: true,
    });
  });
});

describe('sessions: who may call', () => {
  const mine = () =>
    h.client.get('/sessions', { headers: { 'x-pp-identity': header('sessions') } }).then((res) => res.status);
  const header = (aud: string) =>
    signIdentity(INTERNAL_KEY, { sub: 'ann', kind: 'user', iss: 'gateway', aud });

  it('refuses (401 invalid_identity) an identity signed for another unit, and one that names no unit', async () => {
    expect(await mine()).toBe(200);
    const forStories = await h.client.get('/sessions', { headers: { 'x-pp-identity': header('stories') } });
    expect([forStories.status, forStories.body.error.code]).toEqual([401, 'invalid_identity']);
    const iat = Math.floor(Date.now() / 1000);
    const body = Buffer.from(JSON.stringify({ sub: 'ann', kind: 'user', iat, exp: iat + 60 })).toString(
      'base64url',
    );
    const unaddressed = `${body}.${createHmac('sha256', INTERNAL_KEY).update(body).digest('base64url')}`;
    const refused = await h.client.get('/sessions', { headers: { 'x-pp-identity': unaddressed } });
    expect([refused.status, refused.body.error.code]).toEqual([401, 'invalid_identity']);
    const service = await h.client.get('/internal/sessions/ABCDEF', {
      headers: {
        'x-pp-identity': signIdentity(INTERNAL_KEY, {
          sub: 'ai',
          kind: 'service',
          iss: 'ai',
          aud: 'stories',
        }),
      },
    });
    expect(service.status).toBe(401);
  });
});

describe('sessions: update', () => {
  it('lets the owner change every field and answers the full record', async () => {
    const session = await r.createSession('ann');
    const workspace = (await h.client.get('/workspace', { headers: asUser('ann') })).body.workspace;
    const changes = {
      name: 'Renamed',
      description: 'New',
      workspace_id: workspace.id,
      folder_id: await newFolder(),
      record_vote_names: true,
      voteby_enabled: true,
      vote_by_at: new Date(Date.now() + 3600_000).toISOString(),
      voting_system: 'custom',
      custom_deck_name: 'Days',
      custom_deck_values: ['1d', '2d', '3d'],
      auto_reveal: true,
      require_participant_token: true,
      status: 'paused',
    };
    const res = await patch(session.code.toLowerCase(), changes);
    expect(res.status).toBe(200);
    expect(res.body.session).toEqual(expect.objectContaining({ ...changes, deck: ['1d', '2d', '3d'] }));
    const event = await until(async () =>
      h.eventsOf('session.updated').find((e) => e.data.session.id === session.id),
    );
    expect(event.data.changed).toEqual(
      expect.arrayContaining(['name', 'voting_system', 'custom_deck_values', 'status']),
    );
    expect(event.data.session.deck).toEqual(['1d', '2d', '3d']);
  });

  it('refuses a stranger with 403, nobody with 401, and an unknown code with 404', async () => {
    const session = await r.createSession('ann');
    const stranger = await patch(session.code, { name: 'Mine now' }, 'mallory');
    expect(stranger.status).toBe(403);
    expect(stranger.body.error.code).toBe('forbidden');
    expect((await h.client.patch(`/sessions/${session.code}`, { body: { name: 'x' } })).status).toBe(401);
    expect((await patch('ZZZZZZ', { name: 'x' })).status).toBe(404);
    const unchanged = await h.client.get(`/sessions/${session.code}`);
    expect(unchanged.body.session.name).toBe('Sprint 42');
  });

  it('refuses a folder or workspace id no key can hold with 422, not a database error', async () => {
    const session = await r.createSession('ann');
    for (const body of [{ folder_id: 2_147_483_648 }, { workspace_id: 9_007_199_254_740_991 }]) {
      const res = await h.client.patch(`/sessions/${session.code}`, { body, headers: asUser('ann') });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(Object.keys(body));
    }
  });

  it('refuses fields that cannot be set (id, code, owner_id) with 422 and changes nothing', async () => {
    const session = await r.createSession('ann');
    for (const body of [
      { owner_id: 'mallory' },
      { code: 'AAAAAA' },
      { id: session.id, name: 'x' },
      { status: 'revealed' },
    ]) {
      const res = await patch(session.code, body);
      expect(res.status).toBe(422);
      expect(res.body.errors).toBeDefined();
    }
    const after = await h.client.get(`/sessions/${session.code}`, { headers: asUser('ann') });
    expect(after.body.session).toMatchObject({ owner_id: 'ann', code: session.code, name: 'Sprint 42' });
  });

  it('takes each fixed deck and refuses custom decks that break the rules', async () => {
    const session = await r.createSession('ann');
    const decks = {
      tshirt: ['XS', 'S', 'M', 'L', 'XL', 'XXL', '?', 'coffee'],
      powers_of_two: ['0', '1', '2', '4', '8', '16', '32', '64', '?', 'coffee'],
      fibonacci: ['0', '0.5', '1', '2', '3', '5', '8', '13', '20', '40', '100', '?', 'coffee'],
    };
    for (const [system, deck] of Object.entries(decks)) {
      expect((await patch(session.code, { voting_system: system })).body.session.deck).toEqual(deck);
    }
    const refused = [
      { voting_system: 'custom' },
      { voting_system: 'custom', custom_deck_values: ['1'] },
      { voting_system: 'custom', custom_deck_values: Array.from({ length: 31 }, (_, i) => `c${i}`) },
      { voting_system: 'custom', custom_deck_values: ['a', 'a'] },
      { voting_system: 'custom', custom_deck_values: ['a', 'x'.repeat(13)] },
      { voting_system: 'custom', custom_deck_values: ['a', ''] },
      { voting_system: 'planets' },
    ];
    for (const body of refused) {
      const res = await patch(session.code, body);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).join()).toMatch(/custom_deck_values|voting_system/);
    }
    const ok = await patch(session.code, { voting_system: 'custom', custom_deck_values: ['S', 'M'] });
    expect(ok.body.session.deck).toEqual(['S', 'M']);
  });

  it('refuses a vote-by deadline in the past, and switching it on without one', async () => {
    const session = await r.createSession('ann');
    const past = await patch(session.code, { vote_by_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(422);
    expect(past.body.errors.vote_by_at).toEqual(['must be in the future']);
    const missing = await patch(session.code, { voteby_enabled: true });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toHaveProperty('vote_by_at');
  });

  it('announces archive and unarchive, and publishes nothing when nothing changes', async () => {
    const session = await r.createSession('ann');
    expect((await patch(session.code, { status: 'archived' })).body.session.status).toBe('archived');
    expect((await patch(session.code, { status: 'active' })).body.session.status).toBe('active');
    await patch(session.code, { name: 'Sprint 42' }); // the name it has: no change, no event
    await patch(session.code, { description: 'Last one' });
    const mine = (type: 'session.archived' | 'session.unarchived') =>
      h.eventsOf(type).filter((e) => e.data.session.id === session.id);
    const updates = () => h.eventsOf('session.updated').filter((e) => e.data.session.id === session.id);
    await until(async () => updates().length >= 3);
    expect(updates().map((e) => e.data.changed)).toEqual([['status'], ['status'], ['description']]);
    expect(mine('session.archived')).toHaveLength(1);
    expect(mine('session.unarchived')).toHaveLength(1);
  });

  it('tells the stories unit of an archive before it commits, and archives nothing when it cannot', async () => {
    const session = await r.createSession('ann');
    h.storiesArchivingDown = true;
    try {
      const refused = await patch(session.code, { status: 'archived' });
      expect([refused.status, refused.body.error?.code]).toEqual([503, 'stories_unavailable']);
    } finally {
      h.storiesArchivingDown = false;
    }
    expect((await h.client.get(`/sessions/${session.code}`)).body.session.status).toBe('active');
    expect(h.eventsOf('session.archived').filter((e) => e.data.session.id === session.id)).toEqual([]);

    const archived = await patch(session.code, { status: 'archived' });
    expect(archived.status).toBe(200);
    const told = h.archivingNotices.filter((n) => n.sessionId === session.id);
    expect(told).toHaveLength(1);
    // The session as it was, and the time the archive is stamped with.
    expect(told[0]!.body).toEqual({
      session: expect.objectContaining({ id: session.id, status: 'active' }),
      at: archived.body.session.updated_at,
    });
    // Other changes tell it nothing, nor does an archive refused for its own fields.
    const invalid = await patch(session.code, { status: 'archived', vote_by_at: '2020-01-01T00:00:00Z' });
    expect(invalid.status).toBe(422);
    await patch(session.code, { status: 'active' });
    await patch(session.code, { name: 'Renamed' });
    expect(h.archivingNotices.filter((n) => n.sessionId === session.id)).toHaveLength(1);
  });

  it('keeps an archived session read-only until it is unarchived: its settings 409, where it is filed 200', async () => {
    const session = await r.createSession('ann');
    await patch(session.code, { status: 'archived' });
    for (const body of [{ voting_system: 'tshirt' }, { name: 'Renamed' }, { auto_reveal: true }]) {
      const refused = await patch(session.code, body);
      expect([JSON.stringify(body), refused.status, refused.body.error?.code]).toEqual([
        JSON.stringify(body),
        409,
        'session_archived',
      ]);
    }
    const folder = await newFolder();
    expect((await patch(session.code, { folder_id: folder })).body.session.folder_id).toBe(folder);
    // Unarchiving in the same change takes the rest of it too.
    const back = await patch(session.code, { status: 'active', name: 'Back again' });
    expect([back.status, back.body.session.status, back.body.session.name]).toEqual([
      200,
      'active',
      'Back again',
    ]);
  });

  it('announces a change asked many times at once only once: each request sees what the one before made', async () => {
    const session = await r.createSession('ann');
    const burst = (body: unknown) => Promise.all(Array.from({ length: 12 }, () => patch(session.code, body)));
    expect((await burst({ status: 'archived' })).map((res) => res.status)).toEqual(Array(12).fill(200));
    expect((await burst({ status: 'active' })).map((res) => res.status)).toEqual(Array(12).fill(200));
    await burst({ name: 'Renamed at once' });
    const mine = (type: 'session.archived' | 'session.unarchived') =>
      h.eventsOf(type).filter((e) => e.data.session.id === session.id);
    const updates = () => h.eventsOf('session.updated').filter((e) => e.data.session.id === session.id);
    await until(async () => updates().some((e) => e.data.changed.includes('name')));
    // Events of one commit arrive together; give any further commit's events the time to arrive too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updates().map((e) => e.data.changed)).toEqual([['status'], ['status'], ['name']]);
    expect(mine('session.archived')).toHaveLength(1);
    expect(mine('session.unarchived')).toHaveLength(1);
  });
});

describe('sessions: the owner’s list', () => {
  let first: number;
  beforeAll(async () => {
    first = await newFolder('lister');
    const second = await newFolder('lister');
    for (const [name, status, folder] of [
      ['Charlie', 'active', first],
      ['Alpha', 'completed', first],
      ['Bravo', 'archived', second],
    ] as const) {
      const s = await r.createSession('lister', { name, folder_id: folder });
      if (status !== 'active') await patch(s.code, { status }, 'lister');
    }
    await r.createSession('someone-else', { name: 'Not mine' });
  });
  const list = (query = '') => h.client.get(`/sessions${query}`, { headers: asUser('lister') });

  it('lists only the caller’s sessions, newest first, with meta at the top level and in data', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.sessions.map((s: { name: string }) => s.name)).toEqual(['Bravo', 'Alpha', 'Charlie']);
    expect(res.body.meta).toEqual({ current_page: 1, per_page: 15, total: 3, last_page: 1 });
    expect(res.body.data.meta).toEqual(res.body.meta);
  });

  it('filters by folder and status, sorts by name, and pages', async () => {
    const names = async (q: string) => (await list(q)).body.sessions.map((s: { name: string }) => s.name);
    expect(await names(`?folder_id=${first}&sort=name&order=asc`)).toEqual(['Alpha', 'Charlie']);
    expect(await names('?status=archived')).toEqual(['Bravo']);
    const page2 = await list('?per_page=2&page=2&sort=created_at&order=asc');
    expect(page2.body.sessions.map((s: { name: string }) => s.name)).toEqual(['Bravo']);
    expect(page2.body.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
    // Past the last page: no session, and still the count of them all (and of the filtered ones).
    const past = await list('?per_page=2&page=5');
    expect(past.body.sessions).toEqual([]);
    expect(past.body.meta).toEqual({ current_page: 5, per_page: 2, total: 3, last_page: 2 });
    expect((await list(`?folder_id=${first}&page=3`)).body.meta.total).toBe(2);
    const none = await h.client.get('/sessions', { headers: asUser('owns-nothing') });
    expect(none.body).toMatchObject({ sessions: [], meta: { total: 0, current_page: 1 } });
  });

  it('shows each listed session’s participants and current story, like the lookup', async () => {
    const session = await r.createSession('facts-owner', { name: 'Facts' });
    await r.join(session.code, 'Bob');
    const story = await r.openStory(session, 'Checkout');
    const res = await h.client.get('/sessions', { headers: asUser('facts-owner') });
    const lookup = await h.client.get(`/sessions/${session.code}`);
    expect(res.body.sessions[0]).toMatchObject({
      participants_count: 1,
      current_story: { id: story.id, title: 'Checkout', status: 'voting', position: 1 },
    });
    expect(lookup.body.session.current_story).toEqual(res.body.sessions[0].current_story);
    expect(lookup.body.session.participants_count).toBe(1);
  });

  it('answers 422 for per_page 0 or 101 and 400 for per_page=abc', async () => {
    expect((await list('?per_page=0')).status).toBe(422);
    expect((await list('?per_page=101')).status).toBe(422);
    expect((await list('?per_page=100')).status).toBe(200);
    const abc = await list('?per_page=abc');
    expect(abc.status).toBe(400);
    expect(abc.body.error.code).toBe('invalid_query');
    expect((await list('?page=0')).status).toBe(422);
    expect((await list('?sort=owner')).status).toBe(422);
  });

  it('needs a signed-in user', async () => {
    expect((await h.client.get('/sessions')).status).toBe(401);
  });
});

describe('sessions: parts not built yet', () => {
  it('answers the MCP path with 503 and the error envelope', async () => {
    for (const path of ['/mcp']) {
      const res = await h.client.get(path, { headers: asUser('ann') });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, error: { code: 'not_available' } });
    }
  });
});

describe('sessions: internal lookup', () => {
  it('answers a service with the snapshot by id or by code, and 404 when unknown', async () => {
    const session = await r.createSession('ann');
    for (const key of [session.id, session.code.toLowerCase()]) {
      const res = await h.client.get(`/internal/sessions/${key}`, { headers: asService() });
      expect(res.status).toBe(200);
      expect(res.body.session).toMatchObject({
        id: session.id,
        code: session.code,
        owner_id: 'ann',
        deck: expect.any(Array),
      });
    }
    expect((await h.client.get('/internal/sessions/ZZZZZZ', { headers: asService() })).status).toBe(404);
  });

  it('refuses users and anonymous callers', async () => {
    const session = await r.createSession('ann');
    expect((await h.client.get(`/internal/sessions/${session.id}`, { headers: asUser('ann') })).status).toBe(
      403,
    );
    expect((await h.client.get(`/internal/sessions/${session.id}`)).status).toBe(403);
  });
});
