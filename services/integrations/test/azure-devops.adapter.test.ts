import { startFake, type Fake, type FakeResponse, type SeenRequest } from './fakes/fake-server.ts';
import { adapters, connection, failure, oddAnswerOutcomes } from './support/adapters.ts';

const BASIC = `Basic ${Buffer.from(':ado-pat').toString('base64')}`;
const POINTS = 'Microsoft.VSTS.Scheduling.StoryPoints';
const items = Array.from({ length: 250 }, (_, i) => ({
  id: i + 1,
  fields: {
    'System.Title': `Work item ${i + 1}`,
    'System.Description': i === 0 ? '<div>As a <b>user</b></div><img src=x onerror=alert(1)>' : '',
    'Microsoft.VSTS.Common.AcceptanceCriteria': i === 0 ? '<ul><li>Given</li><li>Then</li></ul>' : '',
    'System.Tags': i === 0 ? 'api; ui' : '',
    ...(i === 0 ? { [POINTS]: 5 } : {}),
  },
}));

/** Azure DevOps REST 7.1 for organization `org`, project `Web`: fields, WIQL (ids), workitemsbatch, JSON Patch, comments. */
function azure(req: SeenRequest): FakeResponse {
  // a bad PAT gets the sign-in page, not JSON
  if (req.headers.authorization !== BASIC)
    return { status: 203, body: '<html>Sign in</html>', headers: { 'content-type': 'text/html' } };
  const base = '/org/Web/_apis';
  if (req.method === 'GET' && req.path === `${base}/wit/fields/${POINTS}`)
    return { json: { referenceName: POINTS, type: 'double' } };
  if (req.method === 'POST' && req.path === `${base}/wit/wiql`)
    return { json: { workItems: items.map((w) => ({ id: w.id, url: 'x' })) } };
  if (req.method === 'POST' && req.path === `${base}/wit/workitemsbatch`) {
    const ids = req.json.ids as number[];
    if (ids.length > 200) return { status: 400, json: { message: 'too many ids' } };
    // a work item that is not there (deleted, or out of reach) fails the batch, unless errorPolicy
    // omit asks for null in its place
    const value = ids.map((id) => items.find((w) => w.id === id) ?? null);
    const missing = ids.find((_, i) => value[i] === null);
    if (missing !== undefined && req.json.errorPolicy !== 'omit')
      return {
        status: 404,
        json: {
          message: `TF401232: Work item ${missing} does not exist, or you do not have permissions to read it.`,
        },
      };
    return { json: { count: value.length, value } };
  }
  if (req.method === 'PATCH' && /\/wit\/workitems\/\d+$/.test(req.path)) return { json: { id: 1, rev: 2 } };
  if (req.method === 'POST' && /\/wit\/workItems\/\d+\/comments$/.test(req.path)) return { json: { id: 1 } };
  return { status: 404, json: { message: 'not found' } };
}

describe('the Azure DevOps adapter against an Azure DevOps fake', () => {
  const adapter = adapters().azure_devops;
  let fake: Fake;
  beforeAll(async () => {
    fake = await startFake(azure);
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.seen.splice(0));

  const conn = (token = 'ado-pat') =>
    connection({ organization_url: `${fake.url}/org`, project: 'Web' }, { token });

  it('tests the PAT as Basic :PAT on the estimate field, with api-version 7.1; an HTML answer is a refused token', async () => {
    expect(await adapter.test(conn())).toEqual({ account: 'Web', warnings: [] });
    expect(fake.seen[0]!.headers.authorization).toBe(BASIC);
    expect(fake.seen[0]!.query.get('api-version')).toBe('7.1');
    expect(await failure(adapter.test(conn('wrong')))).toBe('422 provider_auth_failed');
  });

  it('queries WIQL for the ids, then hydrates them 200 at a time, HTML turned to markdown', async () => {
    const first = await adapter.page(conn());
    expect(fake.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /org/Web/_apis/wit/wiql',
      'POST /org/Web/_apis/wit/workitemsbatch',
    ]);
    expect(fake.seen[0]!.json.query).toMatch(
      /^SELECT \[System.Id\] FROM WorkItems WHERE \[System.TeamProject\] = @project/,
    );
    expect(fake.seen[1]!.json.fields).toEqual(
      expect.arrayContaining(['System.Title', 'System.Description', POINTS]),
    );
    expect(first.items[0]).toEqual({
      externalId: '1',
      title: 'Work item 1',
      description: 'As a **user**',
      acceptanceCriteria: '-   Given\n-   Then',
      url: `${fake.url}/org/Web/_workitems/edit/1`,
      labels: ['api', 'ui'],
      estimate: '5',
    });
    const second = await adapter.page(conn(), first.next);
    expect([first.items.length, second.items.length, second.next]).toEqual([200, 50, undefined]);
  });

  it('fetches every id asked for, 200 a batch, leaving out those Azure DevOps does not have', async () => {
    const ids = [...items.map((w) => String(w.id)).reverse(), '9999'];
    expect((await adapter.fetch(conn(), ids)).map((i) => i.externalId)).toEqual(ids.slice(0, -1));
    const batches = fake.seen.filter((r) => r.path.endsWith('/wit/workitemsbatch'));
    expect(batches.map((r) => [r.json.ids.length, r.json.errorPolicy])).toEqual([
      [200, 'omit'],
      [51, 'omit'],
    ]);
    // a work item the WIQL named and gone before the batch: the page has the others
    fake.failNext((r) => r.path.endsWith('/wit/wiql'), { json: { workItems: [{ id: 1 }, { id: 9999 }] } });
    expect((await adapter.page(conn())).items.map((i) => i.externalId)).toEqual(['1']);
  });

  it('writes Story Points with a JSON Patch after a 429, and a comment for a card that is not a number', async () => {
    fake.failNext((r) => r.method === 'PATCH', {
      status: 429,
      headers: { 'retry-after': '1' },
      json: { message: 'TF400733' },
    });
    expect(await adapter.writeEstimate(conn(), '7', '3')).toEqual(['field']);
    const patch = fake.seen.filter((r) => r.method === 'PATCH').at(-1)!;
    expect(patch.headers['content-type']).toBe('application/json-patch+json');
    expect(patch.json).toEqual([{ op: 'add', path: `/fields/${POINTS}`, value: 3 }]);
    expect(fake.seen.filter((r) => r.method === 'PATCH')).toHaveLength(2);
    expect(await adapter.writeEstimate(conn(), '7', 'XL')).toEqual(['comment']);
    expect(fake.seen.at(-1)!.query.get('api-version')).toBe('7.1-preview.4');
    expect(fake.seen.at(-1)!.json).toEqual({ text: 'Estimated in planning poker: XL' });
  });

  it('answers 503 provider_unavailable when Azure DevOps answers 200 with JSON of another shape or with text', async () => {
    const batch = (r: SeenRequest) => r.path.endsWith('/wit/workitemsbatch');
    expect(
      await oddAnswerOutcomes(fake, [
        ['test', (r) => r.path.includes('/wit/fields/'), () => adapter.test(conn())],
        ['page (the WIQL)', (r) => r.path.endsWith('/wit/wiql'), () => adapter.page(conn())],
        ['page (the batch)', batch, () => adapter.page(conn())],
        ['fetch', batch, () => adapter.fetch(conn(), ['3'])],
      ]),
    ).toEqual([]);
    // the sign-in page of a refused token comes with 203: that one still says so
    expect(await failure(adapter.test(conn('wrong')))).toBe('422 provider_auth_failed');
  });

  it('refuses a work item without its id, and reads absent or null fields as empty', async () => {
    const batch = (json: unknown) => fake.failNext((r) => r.path.endsWith('/wit/workitemsbatch'), { json });
    batch({ value: [items[0], { fields: items[1]!.fields }] });
    expect(await failure(adapter.fetch(conn(), ['1', '2']))).toBe('503 provider_unavailable');
    batch({ value: [{ id: 1, fields: { 'System.Title': { text: 'x' } } }] });
    expect(await failure(adapter.fetch(conn(), ['1']))).toBe('503 provider_unavailable');
    batch({ value: [{ id: 9, fields: { 'System.Description': null } }] });
    expect(await adapter.fetch(conn(), ['9'])).toEqual([
      {
        externalId: '9',
        title: '',
        description: '',
        acceptanceCriteria: '',
        url: `${fake.url}/org/Web/_workitems/edit/9`,
        labels: [],
        estimate: null,
      },
    ]);
  });
});
