import { startFake, type Fake, type FakeResponse, type SeenRequest } from './fakes/fake-server.ts';
import { adapters, connection, failure, oddAnswerOutcomes } from './support/adapters.ts';
import { as, startIntegrations } from './support/integrations-harness.ts';

const BOARD = 'b'.repeat(24);
const cards = Array.from({ length: 5 }, (_, i) => ({
  id: String(i).padStart(24, 'c'),
  name: `Card ${i}`,
  desc: i === 0 ? '**bold**' : '',
  url: `https://trello.example/c/${i}`,
  shortUrl: 'x',
  labels:
    i === 0
      ? [
          { name: 'ops', color: 'red' },
          { name: '', color: 'blue' },
        ]
      : [],
  idList: i < 3 ? 'l'.repeat(24) : 'm'.repeat(24),
}));
const TRELLO_AUTH = 'OAuth oauth_consumer_key="trello-key", oauth_token="trello-token"';

/** Trello's REST API 1: members/me, boards, a board's cards (no pagination), comments and custom field items. */
function trello(req: SeenRequest): FakeResponse {
  if (req.headers.authorization !== TRELLO_AUTH)
    return { status: 401, body: 'invalid token', headers: { 'content-type': 'text/plain' } };
  if (req.path === '/1/members/me') return { json: { id: 'm', username: 'trello-user', fullName: 'T' } };
  if (req.path === `/1/boards/${BOARD}`) return { json: { name: 'Board', url: 'u' } };
  if (req.path === `/1/boards/${BOARD}/cards`) return { json: cards };
  if (req.method === 'POST' && req.path.endsWith('/actions/comments')) return { json: { id: 'a' } };
  if (req.method === 'PUT' && req.path.includes('/customField/')) return { json: { id: 'i' } };
  return { status: 404, body: 'not found', headers: { 'content-type': 'text/plain' } };
}

const DATA_SOURCE = '11111111-2222-4333-8444-555555555555';
const pages = Array.from({ length: 130 }, (_, i) => ({
  id: `aaaaaaaa-bbbb-4ccc-8ddd-${String(i).padStart(12, '0')}`,
  url: `https://notion.example/p${i}`,
  properties: {
    Name: { type: 'title', title: [{ plain_text: 'Page ' }, { plain_text: String(i) }] },
    Points: { type: 'number', number: i === 0 ? 8 : null },
    Tags: { type: 'multi_select', multi_select: i === 0 ? [{ name: 'web' }] : [] },
  },
}));

/** Notion 2025-09-03: users/me, a data source's schema and query (100 a page by cursor), page updates and comments. */
function notion(req: SeenRequest): FakeResponse {
  if (req.headers.authorization !== 'Bearer secret_notion')
    return { status: 401, json: { object: 'error', code: 'unauthorized' } };
  if (req.headers['notion-version'] !== '2025-09-03')
    return { status: 400, json: { code: 'missing_version' } };
  if (req.path === '/v1/users/me') return { json: { id: 'bot', name: 'Poker bot' } };
  if (req.method === 'GET' && req.path === `/v1/data_sources/${DATA_SOURCE}`)
    return {
      json: { properties: { Name: { type: 'title' }, Points: { type: 'number' }, Size: { type: 'select' } } },
    };
  if (req.method === 'POST' && req.path === `/v1/data_sources/${DATA_SOURCE}/query`) {
    const start = Number(req.json.start_cursor ?? 0);
    const size = req.json.page_size as number;
    const more = start + size < pages.length;
    return {
      json: {
        results: pages.slice(start, start + size),
        has_more: more,
        next_cursor: more ? String(start + size) : null,
      },
    };
  }
  // a page by its id, written with dashes or without, in either case (the id it answers has dashes)
  if (req.method === 'GET' && req.path.startsWith('/v1/pages/')) {
    const asked = req.path.slice('/v1/pages/'.length).replaceAll('-', '').toLowerCase();
    const page = pages.find((p) => p.id.replaceAll('-', '') === asked);
    if (page) return { json: { object: 'page', ...page } };
  }
  if (req.method === 'PATCH' && req.path.startsWith('/v1/pages/'))
    return { json: { object: 'page', id: req.path.slice('/v1/pages/'.length), properties: {} } };
  if (req.method === 'POST' && req.path === '/v1/comments') return { json: { object: 'comment', id: 'c' } };
  return { status: 404, json: { object: 'error', code: 'object_not_found' } };
}

describe('the Trello and Notion adapters against their fakes', () => {
  let trelloFake: Fake;
  let notionFake: Fake;
  let all: ReturnType<typeof adapters>;
  beforeAll(async () => {
    trelloFake = await startFake(trello);
    notionFake = await startFake(notion);
    all = adapters({ trello: `${trelloFake.url}/1`, notion: `${notionFake.url}/v1` });
  });
  afterAll(async () => {
    await trelloFake.stop();
    await notionFake.stop();
  });

  const board = (settings: Record<string, unknown> = {}, token = 'trello-token') =>
    connection({ board_id: BOARD, ...settings }, { key: 'trello-key', token });
  const database = (settings: Record<string, unknown> = {}, token = 'secret_notion') =>
    connection({ data_source_id: DATA_SOURCE, title_property: 'Name', ...settings }, { token });

  it('Trello: key and token in the OAuth header; a list filter; a fixed pause after a 429 without Retry-After', async () => {
    expect(await all.trello.test(board())).toEqual({ account: 'trello-user', warnings: [] });
    expect(await failure(all.trello.test(board({}, 'wrong')))).toBe('422 provider_auth_failed');
    trelloFake.failNext((r) => r.path.endsWith('/cards'), {
      status: 429,
      json: { error: 'API_TOKEN_LIMIT_EXCEEDED' },
    });
    const page = await all.trello.page(board({ list_id: 'l'.repeat(24) }));
    expect(page.items.map((i) => i.title)).toEqual(['Card 0', 'Card 1', 'Card 2']);
    expect(page.items[0]).toMatchObject({
      description: '**bold**',
      labels: ['ops', 'blue'],
      url: 'https://trello.example/c/0',
    });
    expect(
      trelloFake.seen
        .filter((r) => r.path.endsWith('/cards'))
        .at(-1)!
        .query.get('fields'),
    ).toBe('id,name,desc,url,shortUrl,labels,idList');
  });

  it('Trello: writes a comment, or the number custom field when one is set', async () => {
    expect(await all.trello.writeEstimate(board(), cards[1]!.id, '5')).toEqual(['comment']);
    expect(trelloFake.seen.at(-1)!.query.get('text')).toBe('Estimated in planning poker: 5');
    expect(
      await all.trello.writeEstimate(board({ custom_field_id: 'f'.repeat(24) }), cards[1]!.id, '5'),
    ).toEqual(['field']);
    expect(trelloFake.seen.at(-1)!.json).toEqual({ value: { number: '5' } });
  });

  it('Notion: Bearer and Notion-Version; the data source queried 100 at a time by cursor; properties by exact name', async () => {
    expect(await all.notion.test(database({ estimate_property: 'Points' }))).toEqual({
      account: 'Poker bot',
      warnings: [],
    });
    const first = await all.notion.page(database({ estimate_property: 'Points' }));
    expect(first.items[0]).toEqual({
      externalId: pages[0]!.id,
      title: 'Page 0',
      description: '',
      acceptanceCriteria: '',
      url: 'https://notion.example/p0',
      labels: ['web'],
      estimate: '8',
    });
    const second = await all.notion.page(database(), first.next);
    expect([first.items.length, second.items.length, second.next]).toEqual([100, 30, undefined]);
    expect(notionFake.seen.at(-1)!.json).toEqual({ page_size: 100, start_cursor: '100' });
    notionFake.failNext(() => true, {
      status: 429,
      headers: { 'retry-after': '1' },
      json: { code: 'rate_limited' },
    });
    expect((await all.notion.test(database())).account).toBe('Poker bot');
    expect(await failure(all.notion.test(database({}, 'wrong')))).toBe('422 provider_auth_failed');
  });

  it('Notion: writes a number or select property, or a comment without one', async () => {
    expect(
      await all.notion.writeEstimate(database({ estimate_property: 'Points' }), pages[3]!.id, '3'),
    ).toEqual(['field']);
    expect(notionFake.seen.at(-1)!.json).toEqual({ properties: { Points: { number: 3 } } });
    expect(
      await all.notion.writeEstimate(database({ estimate_property: 'Size' }), pages[3]!.id, 'M'),
    ).toEqual(['field']);
    expect(notionFake.seen.at(-1)!.json).toEqual({ properties: { Size: { select: { name: 'M' } } } });
    expect(await all.notion.writeEstimate(database(), pages[3]!.id, '5')).toEqual(['comment']);
    expect(notionFake.seen.at(-1)!.json).toEqual({
      parent: { page_id: pages[3]!.id },
      rich_text: [{ text: { content: 'Estimate: 5' } }],
    });
  });

  it('Trello: 503 provider_unavailable when it answers 200 with JSON of another shape or with text', async () => {
    expect(
      await oddAnswerOutcomes(trelloFake, [
        ['test (the member)', (r) => r.path === '/1/members/me', () => all.trello.test(board())],
        ['test (the board)', (r) => r.path === `/1/boards/${BOARD}`, () => all.trello.test(board())],
        ['page', (r) => r.path.endsWith('/cards'), () => all.trello.page(board())],
        [
          'fetch',
          (r) => r.path === `/1/cards/${cards[2]!.id}`,
          () => all.trello.fetch(board(), [cards[2]!.id]),
        ],
      ]),
    ).toEqual([]);
    trelloFake.failNext((r) => r.path.endsWith('/cards'), { json: [cards[0], { ...cards[1], id: 42 }] });
    expect(await failure(all.trello.page(board()))).toBe('503 provider_unavailable');
  });

  it('Notion: 503 provider_unavailable when it answers 200 with JSON of another shape or with text', async () => {
    const schema = (r: SeenRequest) => r.method === 'GET' && r.path === `/v1/data_sources/${DATA_SOURCE}`;
    const query = (r: SeenRequest) => r.path.endsWith('/query');
    expect(
      await oddAnswerOutcomes(notionFake, [
        ['test (the bot)', (r) => r.path === '/v1/users/me', () => all.notion.test(database())],
        ['test (the schema)', schema, () => all.notion.test(database())],
        ['page', query, () => all.notion.page(database())],
        [
          'fetch',
          (r) => r.path === `/v1/pages/${pages[5]!.id}`,
          () => all.notion.fetch(database(), [pages[5]!.id]),
        ],
        [
          'write-back (the schema)',
          schema,
          () => all.notion.writeEstimate(database({ estimate_property: 'Points' }), pages[5]!.id, '3'),
        ],
      ]),
    ).toEqual([]);
    expect(notionFake.seen.filter((r) => r.method === 'PATCH' && r.path.endsWith(pages[5]!.id))).toEqual([]);
  });

  it('Notion: fails a write-back it does not confirm with the page updated or the comment created', async () => {
    const patch = (r: SeenRequest) => r.method === 'PATCH';
    const comment = (r: SeenRequest) => r.method === 'POST' && r.path === '/v1/comments';
    const points = database({ estimate_property: 'Points' });
    expect(
      await oddAnswerOutcomes(notionFake, [
        ['write-back (the property)', patch, () => all.notion.writeEstimate(points, pages[5]!.id, '3')],
        ['write-back (a comment)', comment, () => all.notion.writeEstimate(database(), pages[5]!.id, '3')],
      ]),
    ).toEqual([]);
    // another object than the one written
    notionFake.failNext(patch, { json: { object: 'comment', id: 'c' } });
    expect(await failure(all.notion.writeEstimate(points, pages[5]!.id, '3'))).toBe(
      '503 provider_unavailable',
    );
    notionFake.failNext(comment, { json: { object: 'page', id: pages[5]!.id } });
    expect(await failure(all.notion.writeEstimate(database(), pages[5]!.id, '3'))).toBe(
      '503 provider_unavailable',
    );
  });

  it('Notion: refuses a page without its id, and leaves out the other objects a query may answer', async () => {
    const answer = (results: unknown[]) =>
      notionFake.failNext((r) => r.path.endsWith('/query'), {
        json: { results, has_more: false, next_cursor: null },
      });
    answer([pages[0], { ...pages[1], id: undefined }]);
    expect(await failure(all.notion.page(database()))).toBe('503 provider_unavailable');
    answer([pages[0], { ...pages[1], properties: { Name: { type: 'title', title: 'not a list' } } }]);
    expect(await failure(all.notion.page(database()))).toBe('503 provider_unavailable');
    answer([
      { object: 'data_source', id: DATA_SOURCE, properties: { Points: { type: 'number', number: {} } } },
      pages[2],
    ]);
    expect((await all.notion.page(database())).items.map((i) => i.title)).toEqual(['Page 2']);
  });
});

describe('an import of Notion pages by id', () => {
  it('takes a page id as Notion links show it (no dashes) or in capitals, as the page it names', async () => {
    const fake = await startFake(notion);
    const h = await startIntegrations({ NOTION_API_URL: `${fake.url}/v1` });
    try {
      const s = await h.session();
      const created = await h.client.post('/integrations/connections', {
        body: {
          provider: 'notion',
          credentials: { token: 'secret_notion' },
          settings: { data_source_id: DATA_SOURCE, title_property: 'Name' },
        },
        ...as(s.owner),
      });
      expect(created.status).toBe(201);
      const importIds = (issues: string[]) =>
        h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
          body: { connection_id: created.body.connection.id, issues },
          ...as(s.owner),
        });
      const first = await importIds([pages[3]!.id.replaceAll('-', ''), pages[4]!.id.toUpperCase()]);
      expect(first.status).toBe(201);
      expect(first.body.stories.map((st: { external_id: string }) => st.external_id)).toEqual([
        pages[3]!.id,
        pages[4]!.id,
      ]);
      // the same pages, named as a preview shows them: the stories they became
      const again = await importIds([pages[3]!.id, pages[4]!.id]);
      expect(again.body.stories.map((st: { id: string; already_imported: boolean }) => st)).toEqual(
        first.body.stories.map((st: { id: string }) =>
          expect.objectContaining({ id: st.id, already_imported: true }),
        ),
      );
    } finally {
      await h.stop();
      await fake.stop();
    }
  });
});
