import { adapters, connection, failure, oddAnswerOutcomes } from './support/adapters.ts';
import { GITHUB_TOKEN, startGithubFake } from './fakes/github.fake.ts';

describe('the GitHub adapter against a GitHub fake', () => {
  const github = adapters().github;
  let fake: Awaited<ReturnType<typeof startGithubFake>>;
  beforeAll(async () => {
    fake = await startGithubFake({ issues: 250, pullEvery: 10 });
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.seen.splice(0));

  const conn = (settings: Record<string, unknown> = {}, token = GITHUB_TOKEN) =>
    connection({ api_url: fake.apiUrl, owner: 'octo', repository: 'planning', ...settings }, { token });

  it('tests the token on /user and the repository, with the headers GitHub asks for', async () => {
    expect(await github.test(conn())).toEqual({ account: 'octocat', warnings: [] });
    expect(fake.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v3/user',
      'GET /api/v3/repos/octo/planning',
    ]);
    expect(fake.seen[0]!.headers).toMatchObject({
      authorization: `Bearer ${GITHUB_TOKEN}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': expect.any(String),
    });
  });

  it('answers an address refused at connection time as refused settings (422), never as the tracker down', async () => {
    // A name that resolved to a public address when the connection was made, and to this machine now.
    const rebound = adapters(
      {},
      { allowPrivate: false, resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
    );
    const target = connection(
      { api_url: 'https://github.rebind.test/api/v3', owner: 'o', repository: 'r' },
      {
        token: GITHUB_TOKEN,
      },
    );
    // More than the breaker's volume: refusals do not open it (a 503 would say the tracker is down).
    for (let i = 0; i < 12; i++)
      expect(await failure(rebound.github.test(target))).toBe('422 validation_failed');
    expect(fake.seen).toEqual([]);
  });

  it('pages through the open issues 100 at a time by the Link header, leaving pull requests out', async () => {
    const first = await github.page(conn({ labels: ['backend'] }));
    expect(fake.seen[0]!.query.get('labels')).toBe('backend');
    expect(fake.seen[0]!.query.get('state')).toBe('open');
    expect(first.items).toEqual([
      {
        externalId: '1',
        title: 'Issue 1',
        description: 'Some **markdown**',
        acceptanceCriteria: '',
        url: 'https://github.example/octo/planning/issues/1',
        labels: ['backend', 'estimate: 3'],
        estimate: '3',
      },
    ]);
    const all = [];
    let cursor: string | undefined;
    do {
      const page = await github.page(conn(), cursor);
      all.push(...page.items);
      cursor = page.next;
    } while (cursor);
    expect(all).toHaveLength(225);
    expect(all.some((i) => Number(i.externalId) % 10 === 0)).toBe(false);
    expect(fake.seen.slice(1).map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
    expect(fake.seen.every((r) => r.query.get('per_page') === '100' || r.path.endsWith('/user'))).toBe(true);
  });

  it('waits out a rate limit (429 with Retry-After, or 403 with no requests left until the reset) and goes on', async () => {
    fake.failNext((r) => r.path.endsWith('/issues'), {
      status: 429,
      headers: { 'retry-after': '1' },
      json: {},
    });
    const started = Date.now();
    expect((await github.page(conn())).items).toHaveLength(90);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const reset = String(Math.ceil(Date.now() / 1000) + 1);
    fake.failNext((r) => r.path.endsWith('/user'), {
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
      json: { message: 'API rate limit exceeded' },
    });
    expect((await github.test(conn())).account).toBe('octocat');
    expect(fake.seen.filter((r) => r.path.endsWith('/user'))).toHaveLength(2);
  });

  it('answers a limit too far away with 503 provider_rate_limited, a bad token with 422 provider_auth_failed', async () => {
    fake.failNext((r) => r.path.endsWith('/user'), {
      status: 429,
      headers: { 'retry-after': '3600' },
      json: {},
    });
    expect(await failure(github.test(conn()))).toBe('503 provider_rate_limited');
    expect(await failure(github.test(conn({}, 'wrong')))).toBe('422 provider_auth_failed');
    expect(await failure(github.test(conn({ repository: 'missing' })))).toBe('422 provider_not_found');
  });

  it('fetches issues by number, and writes the estimate back as a comment and, when asked, as a label', async () => {
    const found = await github.fetch(conn(), ['2', '10', '999', 'x']);
    expect(found.map((i) => i.externalId)).toEqual(['2']);
    expect(await github.writeEstimate(conn(), '2', '5')).toEqual(['comment']);
    expect(fake.comments.at(-1)).toEqual({ issue: 2, body: 'Estimated in planning poker: **5**' });
    expect(await github.writeEstimate(conn({ label_sync: true, comment_sync: false }), '1', '8')).toEqual([
      'label',
    ]);
    expect(fake.issues[0]!.labels.map((l) => l.name)).toEqual(['backend', 'estimate: 8']);
    expect(fake.seen.some((r) => r.method === 'DELETE' && r.path.endsWith('/labels/estimate%3A%203'))).toBe(
      true,
    );
  });

  it('writes the estimate label when the old one went in the meantime (GitHub: 404 Label does not exist)', async () => {
    fake.issues[4]!.labels = [{ name: 'estimate: 2' }];
    // Someone (or a sync beside this one) takes the old label off between the read and the removal.
    fake.failNext((r) => r.method === 'DELETE' && r.path.endsWith('/issues/5/labels/estimate%3A%202'), {
      status: 404,
      json: { message: 'Label does not exist' },
    });
    expect(await github.writeEstimate(conn({ label_sync: true, comment_sync: false }), '5', '8')).toEqual([
      'label',
    ]);
    expect(fake.issues[4]!.labels.map((l) => l.name)).toContain('estimate: 8');
  });

  it('answers 503 provider_unavailable when GitHub answers 200 with JSON of another shape or with text', async () => {
    const issue = (r: { method: string; path: string }, n: number) =>
      r.method === 'GET' && r.path.endsWith(`/issues/${n}`);
    expect(
      await oddAnswerOutcomes(fake, [
        ['test (the user)', (r) => r.path.endsWith('/user'), () => github.test(conn())],
        ['test (the repository)', (r) => r.path.endsWith('/planning'), () => github.test(conn())],
        ['page', (r) => r.path.endsWith('/issues'), () => github.page(conn())],
        ['fetch', (r) => issue(r, 2), () => github.fetch(conn(), ['2'])],
        [
          'label write-back',
          (r) => issue(r, 3),
          () => github.writeEstimate(conn({ label_sync: true, comment_sync: false }), '3', '5'),
        ],
      ]),
    ).toEqual([]);
    expect(fake.issues[2]!.labels).toEqual([]);
  });

  it('refuses a list with an issue it cannot identify, and reads texts that are null or absent as empty', async () => {
    const listed = (json: unknown) =>
      fake.failNext((r) => r.path.endsWith('/issues'), { json, headers: { link: '' } });
    listed([fake.issues[1], { ...fake.issues[2], number: '3' }]);
    expect(await failure(github.page(conn()))).toBe('503 provider_unavailable');
    listed([fake.issues[1], { ...fake.issues[2], title: 42 }]);
    expect(await failure(github.page(conn()))).toBe('503 provider_unavailable');
    listed([
      { number: 7, title: null, body: null, html_url: null },
      { number: 8, labels: null },
    ]);
    const blank = (externalId: string) => ({
      externalId,
      title: '',
      description: '',
      acceptanceCriteria: '',
      url: null,
      labels: [],
      estimate: null,
    });
    expect((await github.page(conn())).items).toEqual([blank('7'), blank('8')]);
  });

  it('reads a Retry-After that names no time as a wait of a minute, never NaN', async () => {
    fake.failNext((r) => r.path.endsWith('/user'), {
      status: 403,
      headers: { 'retry-after': 'soon' },
      json: { message: 'You have exceeded a secondary rate limit' },
    });
    const err = await github.test(conn()).catch((e: { code: string; headers?: Record<string, string> }) => e);
    expect(err).toMatchObject({ code: 'provider_rate_limited', headers: { 'Retry-After': '60' } });
  });
});
