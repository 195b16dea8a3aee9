import { until } from '@pp/testing';
import { rooms } from './support/room.ts';
import { asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

const post = (body: unknown, user = 'ann') => h.client.post('/folders', { body, headers: asUser(user) });
const patchFolder = (id: number | string, body: unknown, user = 'ann') =>
  h.client.patch(`/folders/${id}`, { body, headers: asUser(user) });
const getFolder = (id: number | string, user = 'ann') =>
  h.client.get(`/folders/${id}`, { headers: asUser(user) });
const deleteFolder = (id: number | string, user = 'ann') =>
  h.client.delete(`/folders/${id}`, { headers: asUser(user) });
const folder = async (name: string, user = 'ann', color = '#336699') => {
  const res = await post({ name, color }, user);
  if (res.status !== 201) throw new Error(`create folder answered ${res.status}: ${res.text}`);
  return res.body.folder as { id: number; name: string; color: string };
};
const sessionOf = async (code: string, user = 'ann') =>
  (await h.client.get(`/sessions/${code}`, { headers: asUser(user) })).body.session;
const sql = async <T>(query: string, params: unknown[] = []) =>
  (await h.runtime.db.fork().getConnection().execute(query, params)) as T[];

describe('folders: create, list, rename, recolour, delete', () => {
  it('creates a folder with its name and colour (kept lowercase), and lists the caller’s by name, paginated', async () => {
    const res = await post({ name: 'Backend', color: '#AABBCC' }, 'lister');
    expect(res.status).toBe(201);
    expect(res.body.folder).toEqual({
      id: expect.any(Number),
      name: 'Backend',
      color: '#aabbcc',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.body.data.folder).toEqual(res.body.folder);
    await folder('Alpha team', 'lister');
    await folder('Zeta', 'lister');
    await folder('Not theirs', 'someone-else');

    const page1 = await h.client.get('/folders?per_page=2', { headers: asUser('lister') });
    expect(page1.status).toBe(200);
    expect(page1.body.folders.map((f: { name: string }) => f.name)).toEqual(['Alpha team', 'Backend']);
    expect(page1.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    const page2 = await h.client.get('/folders?per_page=2&page=2', { headers: asUser('lister') });
    expect(page2.body.folders.map((f: { name: string }) => f.name)).toEqual(['Zeta']);
  });

  it('renames and recolours a folder, and answers it', async () => {
    const f = await folder('Old name');
    const renamed = await patchFolder(f.id, { name: 'New name' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.folder).toMatchObject({ id: f.id, name: 'New name', color: '#336699' });
    const recoloured = await patchFolder(f.id, { color: '#FF0000' });
    expect(recoloured.body.folder).toMatchObject({ name: 'New name', color: '#ff0000' });
    const read = await getFolder(f.id);
    expect(read.status).toBe(200);
    expect(read.body.folder).toEqual(recoloured.body.folder);
    expect(read.body.data.folder).toEqual(read.body.folder);
  });

  it('refuses a name the owner already uses, in any case, with 409 duplicate; other owners may use it', async () => {
    await folder('Frontend');
    for (const name of ['Frontend', 'FRONTEND', ' frontend ']) {
      const again = await post({ name, color: '#000000' });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ success: false, error: { code: 'duplicate' } });
    }
    expect((await post({ name: 'frontend', color: '#000000' }, 'bob')).status).toBe(201);
    const other = await folder('Mobile');
    const clash = await patchFolder(other.id, { name: 'frontEND' });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('duplicate');
    expect((await patchFolder(other.id, { name: 'MOBILE' })).body.folder.name).toBe('MOBILE');
  });

  it('takes a name written with combining accents as the same name written with accented letters (409)', async () => {
    // "Café" as é (U+00E9), and as e followed by U+0301: the same text on screen, two strings.
    const made = await folder('Caf\u00e9 cr\u00e8me', 'unicode');
    for (const name of ['Cafe\u0301 cre\u0300me', 'CAFE\u0301 CRE\u0300ME']) {
      const again = await post({ name, color: '#000000' }, 'unicode');
      expect([name, again.status, again.body.error?.code]).toEqual([name, 409, 'duplicate']);
    }
    const other = await post({ name: 'Te\u0301a', color: '#000000' }, 'unicode');
    expect(other.body.folder.name).toBe('T\u00e9a');
    const clash = await patchFolder(other.body.folder.id, { name: 'Cafe\u0301 Cr\u00e8me' }, 'unicode');
    expect([clash.status, made.name]).toEqual([409, 'Caf\u00e9 cr\u00e8me']);
    // Case beyond ASCII and beyond one letter for one letter: one name as case folding has it.
    await folder('Straße', 'unicode');
    for (const name of ['STRASSE', 'strasse', 'CAFÉ CRÈME']) {
      const again = await post({ name, color: '#000000' }, 'unicode');
      expect([name, again.status]).toEqual([name, 409]);
    }
  });

  it('refuses bad input with 422 naming the field, never a 5xx', async () => {
    const cases: Array<[unknown, string]> = [
      [{ color: '#112233' }, 'name'],
      [{ name: '', color: '#112233' }, 'name'],
      [{ name: '   ', color: '#112233' }, 'name'],
      [{ name: 'x'.repeat(65), color: '#112233' }, 'name'],
      [{ name: 42, color: '#112233' }, 'name'],
      [{ name: 'a\u0000b', color: '#112233' }, 'name'],
      [{ name: 'Colourless' }, 'color'],
      [{ name: 'Red', color: 'red' }, 'color'],
      [{ name: 'Short', color: '#12345' }, 'color'],
      [{ name: 'Alpha', color: '#12345g' }, 'color'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    const unknown = await post({ name: 'Extra', color: '#123456', owner_id: 'mallory' });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body.errors)).toMatch(/owner_id/);
    for (const body of [null, [], 'text']) {
      const res = await h.client.post('/folders', {
        body: JSON.stringify(body),
        headers: { ...asUser('ann'), 'content-type': 'application/json' },
      });
      expect(res.status).toBe(422);
    }
    const f = await folder('Patch me');
    expect((await patchFolder(f.id, { color: 'blue' })).status).toBe(422);
    expect((await patchFolder(f.id, { id: 5 })).status).toBe(422);
  });

  it('answers 403 for another owner’s folder, 404 for an unknown one or an id no folder can have, and 401 without a user', async () => {
    const theirs = await folder('Private', 'mallory');
    const renamed = await patchFolder(theirs.id, { name: 'Mine' });
    expect([renamed.status, renamed.body.error.code]).toEqual([403, 'forbidden']);
    const deleted = await deleteFolder(theirs.id);
    expect([deleted.status, deleted.body.error.code]).toEqual([403, 'forbidden']);
    const peeked = await getFolder(theirs.id);
    expect([peeked.status, peeked.body.error.code, peeked.text]).toEqual([
      403,
      'forbidden',
      expect.not.stringContaining('Private'),
    ]);
    for (const id of [999_999, 2_147_483_648, 99_999_999_999, 'abc', '1e3', -1, 0]) {
      expect((await patchFolder(id, { name: 'Mine' })).status).toBe(404);
      expect((await getFolder(id)).status).toBe(404);
      const gone = await deleteFolder(id);
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('folder_not_found');
    }
    expect((await h.client.get('/folders', { headers: asUser('mallory') })).body.folders).toEqual([
      expect.objectContaining({ id: theirs.id, name: 'Private' }),
    ]);
    expect((await h.client.get('/folders')).status).toBe(401);
    expect((await h.client.post('/folders', { body: { name: 'x', color: '#000000' } })).status).toBe(401);
    expect((await h.client.get('/folders?per_page=101', { headers: asUser('ann') })).status).toBe(422);
    expect((await h.client.get('/folders?page=abc', { headers: asUser('ann') })).status).toBe(400);
  });
});

describe('folders and sessions', () => {
  it('puts a session in a folder at creation and by PATCH, and lists a folder’s sessions or those in none', async () => {
    const work = await folder('Work', 'filer');
    const home = await folder('Home', 'filer');
    const inWork = await r.createSession('filer', { name: 'In work', folder_id: work.id });
    const loose = await r.createSession('filer', { name: 'Loose' });
    const moved = await r.createSession('filer', { name: 'Moved' });
    const patched = await h.client.patch(`/sessions/${moved.code}`, {
      body: { folder_id: home.id },
      headers: asUser('filer'),
    });
    expect(patched.body.session.folder_id).toBe(home.id);

    const names = async (query: string) =>
      (await h.client.get(`/sessions${query}`, { headers: asUser('filer') })).body.sessions.map(
        (s: { name: string }) => s.name,
      );
    expect(await names(`?folder_id=${work.id}`)).toEqual(['In work']);
    expect(await names(`?folder_id=${home.id}`)).toEqual(['Moved']);
    expect(await names('?folder_id=none')).toEqual(['Loose']);
    expect((await sessionOf(inWork.code, 'filer')).folder_id).toBe(work.id);
    expect((await sessionOf(loose.code, 'filer')).folder_id).toBeNull();

    const out = await h.client.patch(`/sessions/${moved.code}`, {
      body: { folder_id: null },
      headers: asUser('filer'),
    });
    expect(out.body.session.folder_id).toBeNull();
    expect(await names('?folder_id=none&sort=name&order=asc')).toEqual(['Loose', 'Moved']);
  });

  it('never links another owner’s folder: 403 at creation, by PATCH and as a filter, and nothing changes', async () => {
    const theirs = await folder('Theirs', 'mallory');
    const before = await sql<{ n: number }>('select count(*)::int as n from sessions');
    const created = await h.client.post('/sessions', {
      body: { name: 'Sneaky', folder_id: theirs.id },
      headers: asUser('ann'),
    });
    expect([created.status, created.body.error.code]).toEqual([403, 'forbidden']);
    expect(await sql('select count(*)::int as n from sessions')).toEqual(before);

    const mine = await r.createSession('ann');
    const patched = await h.client.patch(`/sessions/${mine.code}`, {
      body: { folder_id: theirs.id, name: 'Renamed too' },
      headers: asUser('ann'),
    });
    expect(patched.status).toBe(403);
    expect(await sessionOf(mine.code)).toMatchObject({ folder_id: null, name: 'Sprint 42' });

    const filtered = await h.client.get(`/sessions?folder_id=${theirs.id}`, { headers: asUser('ann') });
    expect([filtered.status, filtered.body.error.code]).toEqual([403, 'forbidden']);
    expect(
      (await sql('select count(*)::int as n from sessions where folder_id = ?', [theirs.id]))[0],
    ).toEqual({ n: 0 });
  });

  it('refuses folder ids past 32 bits with 4xx in bodies and filters', async () => {
    const big = await h.client.post('/sessions', {
      body: { name: 'x', folder_id: 2_147_483_648 },
      headers: asUser('ann'),
    });
    expect(big.status).toBe(422);
    expect(Object.keys(big.body.errors)).toEqual(['folder_id']);
    for (const query of ['folder_id=2147483648', 'folder_id=abc', 'folder_id=-1', 'folder_id=1.5']) {
      const res = await h.client.get(`/sessions?${query}`, { headers: asUser('ann') });
      expect([400, 422]).toContain(res.status);
      expect(res.body.success).toBe(false);
    }
  });

  it('deleting a folder keeps its sessions, in no folder, each announced as updated', async () => {
    const f = await folder('To delete', 'cleaner');
    const kept = [
      await r.createSession('cleaner', { name: 'One', folder_id: f.id }),
      await r.createSession('cleaner', { name: 'Two', folder_id: f.id }),
    ];
    const res = await deleteFolder(f.id, 'cleaner');
    expect(res.status).toBe(200);
    expect(res.body.folder).toMatchObject({ id: f.id, name: 'To delete' });
    for (const s of kept) expect(await sessionOf(s.code, 'cleaner')).toMatchObject({ folder_id: null });
    expect((await h.client.get('/folders', { headers: asUser('cleaner') })).body.folders).toEqual([]);
    const listed = await h.client.get('/sessions?folder_id=none', { headers: asUser('cleaner') });
    expect(listed.body.meta.total).toBe(2);
    for (const s of kept) {
      const event = await until(async () =>
        h
          .eventsOf('session.updated')
          .find((e) => e.data.session.id === s.id && e.data.changed.includes('folder_id')),
      );
      expect(event.data.changed).toEqual(['folder_id']);
    }
    expect((await deleteFolder(f.id, 'cleaner')).status).toBe(404);
  });

  it('a session put in a folder while it is deleted ends in no folder or is refused: never linked to a gone folder', async () => {
    const f = await folder('Racing', 'racer');
    const creating = Array.from({ length: 12 }, (_, i) =>
      h.client.post('/sessions', { body: { name: `Race ${i}`, folder_id: f.id }, headers: asUser('racer') }),
    );
    const [deleted, ...created] = await Promise.all([deleteFolder(f.id, 'racer'), ...creating]);
    expect(deleted.status).toBe(200);
    for (const res of created) expect([201, 404]).toContain(res.status);
    expect(await sql('select count(*)::int as n from sessions where folder_id = ?', [f.id])).toEqual([
      { n: 0 },
    ]);
    const made = created.filter((res) => res.status === 201).length;
    const listed = await h.client.get('/sessions?folder_id=none', { headers: asUser('racer') });
    expect(listed.body.meta.total).toBe(made);
  });
});
