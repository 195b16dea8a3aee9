import { as, startIntegrations, type IntegrationsHarness } from './support/integrations-harness.ts';

const CSV = [
  '\ufefftitle,description,acceptance_criteria,external_id,url,labels,ignored',
  'Login page,"As a user, I sign in","Given a user\nWhen they sign in\nThen they see the board",CSV-1,https://example.com/1,auth; ui,x',
  '"Quoted ""title""",plain,,CSV-2,,,',
].join('\r\n');

describe('CSV imports', () => {
  let h: IntegrationsHarness;
  beforeAll(async () => {
    h = await startIntegrations();
  });
  afterAll(() => h.stop());

  const preview = (owner: string, csv: string) =>
    h.client.post('/integrations/import-preview', { body: { provider: 'csv', csv }, ...as(owner) });

  it('previews the rows by header (BOM dropped, quoted commas, quotes and line breaks kept) and stores nothing', async () => {
    const res = await preview('someone', CSV);
    expect(res.status).toBe(200);
    expect(res.body.issues).toEqual([
      {
        external_id: 'CSV-1',
        title: 'Login page',
        description: 'As a user, I sign in',
        acceptance_criteria: 'Given a user\nWhen they sign in\nThen they see the board',
        url: 'https://example.com/1',
        labels: ['auth', 'ui'],
        estimate: null,
      },
      expect.objectContaining({ external_id: 'CSV-2', title: 'Quoted "title"', url: null, labels: [] }),
    ]);
    expect(res.body.next_cursor).toBeNull();
    expect(await h.sql('select * from imported_stories')).toEqual([]);
  });

  it('answers a broken file with a 422 naming the line', async () => {
    const unclosed = await preview('someone', 'title,description\nA,"never closed\n');
    expect(unclosed.status).toBe(422);
    expect(unclosed.body.errors.csv[0]).toMatch(/^line \d+: Quote Not Closed/);
    const ragged = await preview('someone', 'title,description\nA,b\nB,c,d\n');
    expect(ragged.body.errors.csv).toEqual([expect.stringMatching(/^line 3: Invalid Record Length/)]);
    const noTitle = await preview('someone', 'name2,description\nA,b\n');
    expect(noTitle.body.errors.csv).toEqual([expect.stringMatching(/^line 1: no title column/)]);
    const emptyTitle = await preview('someone', 'title,description\nA,b\n ,c\n');
    expect(emptyTitle.body.errors.csv).toEqual(['line 3: the title is empty']);
  });

  it('refuses a header that names a column twice (by its name or another of its names), naming the line', async () => {
    const twice = await preview('someone', 'title,description,Title\nFirst,b,Second\n');
    expect([twice.status, twice.body.errors.csv]).toEqual([
      422,
      ['line 1: more than one title column (title, Title)'],
    ]);
    const aliases = await preview('someone', 'Summary,Name,id,key,notes,notes\nA,B,1,2,x,y\n');
    expect(aliases.body.errors.csv).toEqual([
      'line 1: more than one title column (Summary, Name)',
      'line 1: more than one external_id column (id, key)',
    ]);
  });

  it('imports the most rows a CSV may hold, each with labels, from its preview', async () => {
    const rows = Array.from(
      { length: 1_000 },
      (_, i) => `Story ${i},"As a shopper, I pay ${i}",Given a cart,BL-${i},,web; shop; pay; mobile`,
    );
    const s = await h.session();
    const issues = (
      await preview(
        s.owner,
        ['title,description,acceptance_criteria,external_id,url,labels', ...rows].join('\n'),
      )
    ).body.issues;
    expect(issues).toHaveLength(1_000);
    const res = await h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
      body: { provider: 'csv', issues },
      ...as(s.owner),
    });
    expect([res.status, res.body.message]).toEqual([201, '1000 stories imported']);
    expect(res.body.stories).toHaveLength(1_000);
    expect(res.body.stories.at(-1)).toMatchObject({ title: 'Story 999' });
  });

  it('imports the rows in order as stories, and a second import of the same file adds nothing', async () => {
    const s = await h.session();
    const issues = (await preview(s.owner, CSV)).body.issues;
    const first = await h.client.post(`/sessions/${s.code.toLowerCase()}/integrations/import-confirm`, {
      body: { provider: 'csv', issues },
      ...as(s.owner),
    });
    expect([first.status, first.body.message]).toEqual([201, '2 stories imported']);
    expect(first.body.stories).toEqual([
      expect.objectContaining({
        title: 'Login page',
        status: 'voting',
        position: 1,
        external_id: 'CSV-1',
        already_imported: false,
      }),
      expect.objectContaining({
        title: 'Quoted "title"',
        status: 'pending',
        position: 2,
        already_imported: false,
      }),
    ]);
    const again = await h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
      body: { provider: 'csv', issues },
      ...as(s.owner),
    });
    expect(again.status).toBe(201);
    expect(again.body.stories.map((x: { id: string }) => x.id)).toEqual(
      first.body.stories.map((x: { id: string }) => x.id),
    );
    expect(again.body.stories.every((x: { already_imported: boolean }) => x.already_imported)).toBe(true);
    const listed = await h.storiesApi.get(`/sessions/${s.code}/stories`);
    expect(listed.body.stories.map((x: { title: string }) => x.title)).toEqual([
      'Login page',
      'Quoted "title"',
    ]);
    const story = await h.storiesApi.get(`/stories/${first.body.stories[0].id}`, as(s.owner));
    expect(story.body.story.acceptance_criteria).toBe(
      'Given a user\nWhen they sign in\nThen they see the board',
    );
  });

  it('adds an imported story deleted since when it is imported again, and does not list it as already imported', async () => {
    const s = await h.session();
    const issues = (await preview(s.owner, CSV)).body.issues;
    const confirm = () =>
      h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
        body: { provider: 'csv', issues },
        ...as(s.owner),
      });
    const first = await confirm();
    const deleted = first.body.stories[1].id as string;
    expect((await h.storiesApi.delete(`/stories/${deleted}`, as(s.owner))).status).toBe(200);
    const again = await confirm();
    expect(again.status).toBe(201);
    expect(
      again.body.stories.map((x: { id: string; already_imported: boolean }) => [x.id, x.already_imported]),
    ).toEqual([
      [first.body.stories[0].id, true],
      [deleted, false],
    ]);
    const listed = await h.storiesApi.get(`/sessions/${s.code}/stories`);
    expect(listed.body.stories.map((x: { id: string }) => x.id)).toEqual([first.body.stories[0].id, deleted]);
  });

  it('imports only into a session of the caller (403), a session that exists (404), with valid items (422)', async () => {
    const s = await h.session();
    const body = { provider: 'csv', issues: [{ external_id: 'x', title: 'X' }] };
    const stranger = await h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
      body,
      ...as('stranger'),
    });
    expect(stranger.status).toBe(403);
    const unknown = await h.client.post('/sessions/ZZZZZZ/integrations/import-confirm', {
      body,
      ...as(s.owner),
    });
    expect(unknown.status).toBe(404);
    const ids = await h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
      body: { provider: 'csv', issues: ['CSV-1'] },
      ...as(s.owner),
    });
    expect(ids.status).toBe(422);
    const extra = await h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
      body: { provider: 'csv', issues: [{ external_id: 'x', title: 'X', status: 'revealed' }] },
      ...as(s.owner),
    });
    expect(extra.status).toBe(422);
  });

  it('says how many stories an import added, one story as one', async () => {
    const s = await h.session();
    const res = await h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
      body: { provider: 'csv', issues: [{ external_id: 'one', title: 'The only one' }] },
      ...as(s.owner),
    });
    expect([res.status, res.body.message]).toEqual([201, '1 story imported']);
  });
});
