import { startFake, type Fake, type FakeResponse, type SeenRequest } from './fakes/fake-server.ts';
import { adapters, connection, failure, oddAnswerOutcomes } from './support/adapters.ts';

const BASIC = `Basic ${Buffer.from('ann@example.com:jira-token').toString('base64')}`;
const ISSUES = Array.from({ length: 120 }, (_, i) => ({
  id: String(10_000 + i),
  key: `PP-${i + 1}`,
  fields: {
    summary: `Story ${i + 1}`,
    labels: i === 0 ? ['backend'] : [],
    customfield_10016: i === 0 ? 3 : null,
    description: {
      type: 'doc',
      version: 1,
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'Make it ' },
            { type: 'text', text: 'fast', marks: [{ type: 'strong' }] },
          ],
        },
        {
          type: 'bulletList',
          content: [
            { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'one' }] }] },
          ],
        },
      ],
    },
  },
  ...(i === 1
    ? { renderedFields: { description: '<p>Rendered <em>HTML</em><script>alert(1)</script></p>' } }
    : {}),
}));

/** Jira Cloud's REST v3: myself, fields, search/jql pages of 50 by nextPageToken, issue updates and comments. */
function jira(req: SeenRequest): FakeResponse {
  if (req.headers.authorization !== BASIC) return { status: 401, json: { errorMessages: ['Unauthorized'] } };
  if (req.path === '/rest/api/3/myself')
    return { json: { accountId: 'a1', displayName: 'Ann', emailAddress: 'ann@example.com' } };
  if (req.path === '/rest/api/3/field')
    return {
      json: [
        { id: 'summary', name: 'Summary' },
        { id: 'customfield_10016', name: 'Story point estimate' },
      ],
    };
  if (req.method === 'POST' && req.path === '/rest/api/3/search/jql') {
    const { jql, nextPageToken } = req.json;
    // Jira answers at most 100 issues of these fields a page, whatever maxResults asks
    const maxResults = Math.min(req.json.maxResults, 100);
    const keys = /^key in \((.*)\)$/.exec(jql)?.[1]?.split(', ');
    const matching = keys ? ISSUES.filter((i) => keys.includes(i.key)) : ISSUES;
    const start = Number(nextPageToken ?? 0);
    const issues = matching.slice(start, start + maxResults);
    const isLast = start + maxResults >= matching.length;
    return { json: { issues, isLast, ...(isLast ? {} : { nextPageToken: String(start + maxResults) }) } };
  }
  if (req.method === 'PUT' && /^\/rest\/api\/3\/issue\/PP-\d+$/.test(req.path)) return { status: 204 };
  if (req.method === 'POST' && /^\/rest\/api\/3\/issue\/PP-\d+\/comment$/.test(req.path))
    return { status: 201, json: { id: '1' } };
  return { status: 404, json: { errorMessages: ['Issue does not exist'] } };
}

describe('the Jira adapter against a Jira Cloud fake', () => {
  const adapter = adapters().jira;
  let fake: Fake;
  beforeAll(async () => {
    fake = await startFake(jira);
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.seen.splice(0));

  const conn = (
    settings: Record<string, unknown> = {},
    credentials = { email: 'ann@example.com', api_token: 'jira-token' },
  ) => connection({ site_url: fake.url, jql: 'project = PP ORDER BY rank', ...settings }, credentials);

  it('tests with Basic email:token on /myself, a bounded search and the story points field', async () => {
    expect(await adapter.test(conn())).toEqual({ account: 'ann@example.com', warnings: [] });
    expect(fake.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /rest/api/3/myself',
      'GET /rest/api/3/field',
      'POST /rest/api/3/search/jql',
    ]);
    expect(await failure(adapter.test(conn({}, { email: 'ann@example.com', api_token: 'wrong' })))).toBe(
      '422 provider_auth_failed',
    );
  });

  it('uses the story points field found for a while, and looks for it again when the connection is tested', async () => {
    const c = conn();
    await adapter.page(c);
    await adapter.page(c);
    const fieldReads = () => fake.seen.filter((r) => r.path === '/rest/api/3/field').length;
    expect(fieldReads()).toBe(1);
    await adapter.test(c);
    expect(fieldReads()).toBe(2);
  });

  it('pages the JQL through /search/jql by nextPageToken, asking for the fields, with descriptions as markdown', async () => {
    const first = await adapter.page(conn());
    expect(fake.seen.at(-1)!.json).toEqual({
      jql: 'project = PP ORDER BY rank',
      fields: ['summary', 'description', 'labels', 'customfield_10016'],
      maxResults: 50,
      expand: 'renderedFields',
    });
    expect(first.items[0]).toEqual({
      externalId: 'PP-1',
      title: 'Story 1',
      description: 'Make it **fast**\n\n- one',
      acceptanceCriteria: '',
      url: `${fake.url}/browse/PP-1`,
      labels: ['backend'],
      estimate: '3',
    });
    expect(first.items[1]!.description).toBe('Rendered _HTML_');
    const second = await adapter.page(conn(), first.next);
    const third = await adapter.page(conn(), second.next);
    expect(fake.seen.at(-1)!.json.nextPageToken).toBe('100');
    expect([first.items.length, second.items.length, third.items.length, third.next]).toEqual([
      50,
      50,
      20,
      undefined,
    ]);
  });

  it('waits out a 429 with Retry-After, then writes the estimate in the story points field or as an ADF comment', async () => {
    fake.failNext((r) => r.method === 'PUT', { status: 429, headers: { 'retry-after': '1' }, json: {} });
    expect(await adapter.writeEstimate(conn(), 'PP-2', '5')).toEqual(['field']);
    const puts = fake.seen.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(2);
    expect(puts[1]!.json).toEqual({ fields: { customfield_10016: 5 } });
    expect(await adapter.writeEstimate(conn(), 'PP-2', 'M')).toEqual(['comment']);
    expect(fake.seen.at(-1)!.json.body).toEqual({
      type: 'doc',
      version: 1,
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Estimated in planning poker: M' }] }],
    });
    expect((await adapter.fetch(conn(), ['PP-7', 'bad key'])).map((i) => i.externalId)).toEqual(['PP-7']);
  });

  it('fetches every key asked for: more than one search names, and pages Jira answers short', async () => {
    const keys = ISSUES.map((i) => i.key).reverse();
    expect((await adapter.fetch(conn(), keys)).map((i) => i.externalId)).toEqual(keys);
    const searches = fake.seen.filter((r) => r.path === '/rest/api/3/search/jql');
    expect(searches.every((r) => r.json.maxResults <= 100)).toBe(true);
    // a page of fewer issues than asked for, with the token of the rest
    fake.failNext((r) => r.path === '/rest/api/3/search/jql', {
      json: { issues: ISSUES.slice(0, 2), isLast: false, nextPageToken: '2' },
    });
    const five = ['PP-5', 'PP-4', 'PP-3', 'PP-2', 'PP-1'];
    expect((await adapter.fetch(conn(), five)).map((i) => i.externalId)).toEqual(five);
  });

  it('answers 503 provider_unavailable when Jira answers 200 with JSON of another shape or with text', async () => {
    const search = (r: SeenRequest) => r.path === '/rest/api/3/search/jql';
    const fields = (r: SeenRequest) => r.path === '/rest/api/3/field';
    expect(
      await oddAnswerOutcomes(fake, [
        ['test (myself)', (r) => r.path === '/rest/api/3/myself', () => adapter.test(conn())],
        ['test (the fields)', fields, () => adapter.test(conn())],
        ['test (the search)', search, () => adapter.test(conn())],
        ['page', search, () => adapter.page(conn())],
        ['fetch', search, () => adapter.fetch(conn(), ['PP-3'])],
        ['write-back (the fields)', fields, () => adapter.writeEstimate(conn(), 'PP-3', '5')],
      ]),
    ).toEqual([]);
    expect(fake.seen.filter((r) => r.method === 'PUT')).toEqual([]);
  });

  it('fails a write-back Jira does not confirm: the field updated with 204, the comment created with 201 and its id', async () => {
    const put = (r: SeenRequest) => r.method === 'PUT';
    const comment = (r: SeenRequest) => r.method === 'POST' && r.path.endsWith('/comment');
    expect(
      await oddAnswerOutcomes(fake, [
        ['write-back (the field)', put, () => adapter.writeEstimate(conn(), 'PP-3', '5')],
        ['write-back (a comment)', comment, () => adapter.writeEstimate(conn(), 'PP-3', 'M')],
      ]),
    ).toEqual([]);
    fake.failNext(comment, { status: 201, json: { self: 'no id' } });
    expect(await failure(adapter.writeEstimate(conn(), 'PP-3', 'M'))).toBe('503 provider_unavailable');
    fake.failNext(comment, { status: 204 });
    expect(await failure(adapter.writeEstimate(conn(), 'PP-3', 'M'))).toBe('503 provider_unavailable');
  });

  it('refuses an issue without its key or a description nested past reading, and reads a points field of another kind as no estimate', async () => {
    const answer = (issues: unknown[]) =>
      fake.failNext((r) => r.path === '/rest/api/3/search/jql', { json: { issues, isLast: true } });
    answer([ISSUES[0], { ...ISSUES[1], key: null }]);
    expect(await failure(adapter.page(conn()))).toBe('503 provider_unavailable');
    // written out as text: the fake's own JSON.stringify would not reach that deep
    const deep = `${'{"type":"paragraph","content":['.repeat(5_000)}{"type":"text","text":"deep"}${']}'.repeat(5_000)}`;
    fake.failNext((r) => r.path === '/rest/api/3/search/jql', {
      headers: { 'content-type': 'application/json' },
      body: `{"isLast":true,"issues":[{"key":"PP-1","fields":{"summary":"Deep","description":{"type":"doc","content":[${deep}]}}}]}`,
    });
    expect(await failure(adapter.page(conn()))).toBe('503 provider_unavailable');
    answer([
      {
        key: 'PP-1',
        fields: { summary: null, description: null, labels: null, customfield_10016: { value: 'M' } },
      },
    ]);
    expect((await adapter.page(conn())).items).toEqual([
      {
        externalId: 'PP-1',
        title: '',
        description: '',
        acceptanceCriteria: '',
        url: `${fake.url}/browse/PP-1`,
        labels: [],
        estimate: null,
      },
    ]);
  });
});
