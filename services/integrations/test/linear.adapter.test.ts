import { startFake, type Fake, type FakeResponse, type SeenRequest } from './fakes/fake-server.ts';
import { adapters, connection, failure, oddAnswerOutcomes } from './support/adapters.ts';

const KEY = 'lin_api_fake';
const issues = Array.from({ length: 70 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  identifier: `ENG-${i + 1}`,
  title: `Linear ${i + 1}`,
  description: i === 0 ? '# Heading' : null,
  url: `https://linear.example/eng/issue/ENG-${i + 1}`,
  estimate: i === 0 ? 2 : null,
  labels: { nodes: i === 0 ? [{ id: 'l1', name: 'Bug' }] : [] },
  state: { name: 'Todo', type: 'unstarted' },
  team: { key: 'ENG' },
}));
const mutations: Array<{ query: string; variables: Record<string, unknown> }> = [];

/** Linear's GraphQL endpoint: viewer, issues (50 a page by cursor), issue, issueUpdate, commentCreate. */
function linear(req: SeenRequest): FakeResponse {
  if (req.path !== '/graphql' || req.method !== 'POST') return { status: 404, json: {} };
  if (req.headers.authorization !== KEY)
    return {
      status: 400,
      json: {
        errors: [{ message: 'Authentication required', extensions: { code: 'AUTHENTICATION_ERROR' } }],
      },
    };
  const { query, variables } = req.json as { query: string; variables: Record<string, unknown> };
  if (query.includes('viewer'))
    return {
      json: {
        data: {
          viewer: { id: 'u1', name: 'Lin', email: 'lin@example.com' },
          organization: { id: 'o', name: 'O', urlKey: 'o' },
        },
      },
    };
  if (query.startsWith('query Issues')) {
    const start = variables.after ? Number(variables.after) : 0;
    const nodes = issues.slice(start, start + 50);
    return {
      json: {
        data: {
          issues: {
            nodes,
            pageInfo: { hasNextPage: start + 50 < issues.length, endCursor: String(start + 50) },
          },
        },
      },
    };
  }
  const issue = issues.find((i) => i.identifier === variables.id || i.id === variables.id);
  if (query.startsWith('query Estimation'))
    return {
      json: {
        data: {
          issue: {
            id: issue!.id,
            team: { issueEstimationType: issue!.identifier === 'ENG-3' ? 'notUsed' : 'fibonacci' },
          },
        },
      },
    };
  if (query.startsWith('query Issue'))
    return issue
      ? { json: { data: { issue } } }
      : { json: { data: { issue: null }, errors: [{ message: 'Entity not found' }] } };
  mutations.push({ query, variables });
  if (query.includes('issueUpdate'))
    return {
      json: { data: { issueUpdate: { success: true, issue: { id: variables.id, estimate: variables.e } } } },
    };
  return { json: { data: { commentCreate: { success: true } } } };
}

describe('the Linear adapter against a Linear GraphQL fake', () => {
  let fake: Fake;
  let adapter: ReturnType<typeof adapters>['linear'];
  beforeAll(async () => {
    fake = await startFake(linear);
    adapter = adapters({ linear: fake.url }).linear;
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.seen.splice(0));

  const conn = (settings: Record<string, unknown> = {}, token = KEY) =>
    connection({ team_id: 'ENG', ...settings }, { token });

  it('sends the API key as is, and an OAuth token as Bearer', async () => {
    expect(await adapter.test(conn())).toEqual({ account: 'lin@example.com', warnings: [] });
    expect(fake.seen[0]!.headers.authorization).toBe(KEY);
    await adapter.test(connection({}, { access_token: 'oauth-token' }, 'oauth')).catch(() => undefined);
    expect(fake.seen[1]!.headers.authorization).toBe('Bearer oauth-token');
    expect(await failure(adapter.test(conn({}, 'wrong')))).toBe('422 provider_auth_failed');
  });

  it('pages the Issues query with the team filter by cursor', async () => {
    const first = await adapter.page(conn());
    const body = fake.seen[0]!.json;
    expect(body.query).toContain('issues(filter: $filter, first: 50, after: $after, orderBy: updatedAt)');
    expect(body.query).toContain('pageInfo { hasNextPage endCursor }');
    expect(body.variables).toEqual({
      filter: { team: { key: { eq: 'ENG' } }, state: { type: { nin: ['completed', 'canceled'] } } },
      after: null,
    });
    expect(first.items[0]).toEqual({
      externalId: 'ENG-1',
      title: 'Linear 1',
      description: '# Heading',
      acceptanceCriteria: '',
      url: 'https://linear.example/eng/issue/ENG-1',
      labels: ['Bug'],
      estimate: '2',
    });
    const second = await adapter.page(conn(), first.next);
    expect(fake.seen[1]!.json.variables.after).toBe('50');
    expect([first.items.length, second.items.length, second.next]).toEqual([50, 20, undefined]);
  });

  it('waits out RATELIMITED (a GraphQL error on HTTP 400), and reads errors[] on a 200', async () => {
    fake.failNext(() => true, {
      status: 400,
      headers: { 'x-ratelimit-requests-reset': String(Date.now() + 500) },
      json: { errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATELIMITED' } }] },
    });
    expect((await adapter.page(conn())).items).toHaveLength(50);
    expect(fake.seen).toHaveLength(2);
    expect((await adapter.fetch(conn(), ['ENG-2', 'ENG-999'])).map((i) => i.externalId)).toEqual(['ENG-2']);
  });

  it('writes an integer estimate with issueUpdate, and a comment where the team does not estimate', async () => {
    expect(await adapter.writeEstimate(conn(), 'ENG-2', '5')).toEqual(['field']);
    expect(mutations.at(-1)).toEqual({
      query: expect.stringContaining('issueUpdate(id:$id,input:{estimate:$e})'),
      variables: { id: issues[1]!.id, e: 5 },
    });
    expect(await adapter.writeEstimate(conn(), 'ENG-3', '8')).toEqual(['comment']);
    expect(mutations.at(-1)!.query).toContain('commentCreate(input:{issueId:$issueId, body:$body})');
  });

  it('fails a write-back Linear answers with success: false (HTTP 200, no errors[]): nothing was written', async () => {
    const mutation = (name: string) => (r: SeenRequest) => String(r.json?.query).includes(name);
    fake.failNext(mutation('issueUpdate'), {
      json: { data: { issueUpdate: { success: false, issue: { id: issues[1]!.id, estimate: null } } } },
    });
    await expect(adapter.writeEstimate(conn(), 'ENG-2', '5')).rejects.toMatchObject({
      code: 'provider_rejected',
      message: 'Linear refused the request: issueUpdate did not succeed',
    });
    fake.failNext(mutation('commentCreate'), { json: { data: { commentCreate: { success: false } } } });
    expect(await failure(adapter.writeEstimate(conn(), 'ENG-3', '8'))).toBe('422 provider_rejected');
    fake.failNext(mutation('issueUpdate'), { json: { data: { issueUpdate: null } } });
    expect(await failure(adapter.writeEstimate(conn(), 'ENG-2', '5'))).toBe('503 provider_unavailable');
  });

  it('answers 503 provider_unavailable when Linear answers 200 with JSON of another shape or with text', async () => {
    const query = (start: string) => (r: SeenRequest) => String(r.json?.query).startsWith(start);
    expect(
      await oddAnswerOutcomes(fake, [
        ['test', (r) => String(r.json?.query).includes('viewer'), () => adapter.test(conn())],
        ['page', query('query Issues'), () => adapter.page(conn())],
        ['fetch', query('query Issue('), () => adapter.fetch(conn(), ['ENG-4'])],
        ['write-back', query('query Estimation'), () => adapter.writeEstimate(conn(), 'ENG-4', '5')],
      ]),
    ).toEqual([]);
    expect(mutations.filter((m) => m.variables.id === issues[3]!.id)).toEqual([]);
  });

  it('refuses errors[] or data of another shape, and an issue without its identifier', async () => {
    fake.failNext(() => true, { status: 400, json: { errors: 5 } });
    expect(await failure(adapter.page(conn()))).toBe('503 provider_unavailable');
    fake.failNext(() => true, {
      json: { data: { issues: { nodes: [{ id: 'x', title: 'No identifier' }] } } },
    });
    expect(await failure(adapter.page(conn()))).toBe('503 provider_unavailable');
    fake.failNext(() => true, { json: { data: { issue: { ...issues[4], identifier: null } } } });
    expect(await failure(adapter.fetch(conn(), ['ENG-5']))).toBe('503 provider_unavailable');
  });
});
