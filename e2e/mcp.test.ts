/**
 * The API as MCP tools, driven by the MCP SDK's own client over Streamable HTTP through the gateway:
 * the tools, a session created, stories added, votes cast over HTTP, the reveal through a tool, the
 * analytics and the activity; another user's token refused, no token refused.
 */
import { until } from '@pp/testing';
import type { OpenApiJson } from '../gateway/src/openapi/document.ts';
import { differencesFromDocument } from './support/documented.ts';
import { startMcpPlatform, type McpPlatform } from './support/mcp.ts';

describe('the MCP server through the gateway', () => {
  let p: McpPlatform;
  beforeAll(async () => {
    p = await startMcpPlatform();
  }, 60_000);
  afterAll(() => p.stop());

  const tokenFor = (name: string, kind?: 'mcp' | 'api') => p.tokenFor(name, kind);
  const connect = (token: string) => p.connect(token);
  const call = (...args: Parameters<McpPlatform['call']>) => p.call(...args);

  it('lists the tools, each with the inputs of its endpoint', async () => {
    const { token } = await tokenFor('Olga');
    const client = await connect(token);
    // The MCP unit learns each unit's inputs from the unit's own description of its paths.
    const tools = await until(async () => {
      const listed = (await client.listTools()).tools;
      const create = listed.find((t) => t.name === 'create_session');
      return (create?.inputSchema.properties as Record<string, unknown> | undefined)?.name
        ? listed
        : undefined;
    });
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'add_story',
        'ai_acceptance_criteria',
        'ai_analyze_story',
        'ai_draft_stories',
        'ai_estimate',
        'ai_estimation_report',
        'ai_improve_story',
        'ai_split_story',
        'ai_summary',
        'create_session',
        'get_activity',
        'get_analytics',
        'get_session',
        'import_csv',
        'list_sessions',
        'reveal_votes',
        'set_current_story',
        'start_countdown',
        'start_quick_vote',
        'stop_countdown',
      ].sort(),
    );
    const addStory = tools.find((t) => t.name === 'add_story')!;
    expect(addStory.inputSchema.required).toEqual(expect.arrayContaining(['code', 'title']));
    expect(Object.keys(addStory.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['code', 'title', 'description', 'acceptance_criteria']),
    );
    expect(tools.find((t) => t.name === 'reveal_votes')!.inputSchema.required).toEqual(['story_id']);
    // Each tool's inputs come from the unit that serves its path (a wrong unit leaves them open).
    expect(tools.find((t) => t.name === 'start_countdown')!.inputSchema).toMatchObject({
      required: ['code', 'seconds'],
      additionalProperties: false,
    });
    expect(
      Object.keys(tools.find((t) => t.name === 'start_quick_vote')!.inputSchema.properties ?? {}),
    ).toEqual(expect.arrayContaining(['code', 'title']));
    // Each tool carries the definitions its inputs use, not every schema its unit describes.
    expect(tools.find((t) => t.name === 'reveal_votes')!.inputSchema.$defs).toBeUndefined();
    expect(JSON.stringify(tools).length).toBeLessThan(40_000);
    await client.close();
  });

  it('runs a round: create, add stories, votes over HTTP, reveal through the tool, analytics and activity', async () => {
    const { token } = await tokenFor('Moderator');
    const client = await connect(token);
    const created = await call(client, 'create_session', { name: 'Sprint 7', voting_system: 'fibonacci' });
    expect(created.isError).toBeFalsy();
    const code = created.structuredContent.session.code as string;
    expect(JSON.parse(created.content[0]!.text!).session.code).toBe(code);

    const first = await call(client, 'add_story', { code, title: 'Login page' });
    const second = await call(client, 'add_story', { code, title: 'Signup page' });
    expect(first.structuredContent.story).toMatchObject({ title: 'Login page', status: 'voting' });
    expect(second.structuredContent.story.status).toBe('pending');
    const storyId = first.structuredContent.story.id as string;

    for (const [name, value] of [
      ['Ann', '5'],
      ['Bob', '8'],
      ['Cy', '5'],
    ]) {
      const joined = await p.client.post(`/sessions/${code}/join`, { body: { name } });
      const vote = await p.client.post(`/sessions/${code}/vote`, {
        body: { participant_id: joined.body.participant.id, vote: value },
      });
      expect(vote.status).toBe(200);
    }
    const revealed = await call(client, 'reveal_votes', { story_id: storyId });
    expect(revealed.isError).toBeFalsy();
    expect(revealed.structuredContent.story).toMatchObject({ status: 'revealed', final_estimate: '5' });
    expect(revealed.structuredContent.next_story.id).toBe(second.structuredContent.story.id);

    const looked = await call(client, 'get_session', { id: created.structuredContent.session.id });
    expect(looked.structuredContent.session.current_story.id).toBe(second.structuredContent.story.id);

    const analytics = await until(async () => {
      const a = await call(client, 'get_analytics', { code });
      return a.structuredContent?.analytics?.totals?.revealed === 1 ? a : undefined;
    });
    expect(analytics.structuredContent.analytics.distribution).toEqual([{ value: '5', count: 1 }]);

    const activity = await until(async () => {
      const a = await call(client, 'get_activity', { code });
      const types = (a.structuredContent?.activity ?? []).map((e: { type: string }) => e.type);
      return types.includes('story.revealed') ? types : undefined;
    });
    expect(activity).toEqual(expect.arrayContaining(['participant.joined', 'vote.cast', 'story.created']));
    await client.close();
  });

  it('runs the meeting: a quick vote, a countdown started and stopped, refused to a stranger', async () => {
    const owner = await connect((await tokenFor('Facilitator')).token);
    const code = (await call(owner, 'create_session', { name: 'Stand-up' })).structuredContent.session.code;
    const quick = await call(owner, 'start_quick_vote', { code, title: 'Hotfix size' });
    expect(quick.content[0]!.text).not.toMatch(/failed|\(\d{3}/);
    expect(quick.isError).toBeFalsy();
    const storyId = quick.structuredContent.story.id as string;
    expect(quick.structuredContent.story).toMatchObject({ title: 'Hotfix size', status: 'voting' });

    const invalid = await call(owner, 'start_countdown', { code, seconds: 2 });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]!.text).toMatch(/422|seconds/);
    const started = await call(owner, 'start_countdown', { code, seconds: 120, at_zero: 'close' });
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent.countdown).toMatchObject({
      story_id: storyId,
      seconds: 120,
      at_zero: 'close',
    });
    const looked = await p.client.get(`/sessions/${code}`);
    expect(looked.body.session.countdown).toMatchObject({ story_id: storyId, seconds: 120 });

    const stranger = await connect((await tokenFor('Bystander')).token);
    const refused = await call(stranger, 'stop_countdown', { code });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/40[34]/);
    expect((await p.client.get(`/sessions/${code}`)).body.session.countdown).not.toBeNull();

    const stopped = await call(owner, 'stop_countdown', { code });
    expect(stopped.isError).toBeFalsy();
    expect(stopped.structuredContent.stopped).toBe(true);
    expect((await p.client.get(`/sessions/${code}`)).body.session.countdown).toBeNull();
    expect((await call(owner, 'stop_countdown', { code })).structuredContent.stopped).toBe(false);
    await owner.close();
    await stranger.close();
  });

  it("gives a tool error, not a protocol failure, for a refusal: another user's token cannot reveal", async () => {
    const owner = await connect((await tokenFor('Owner')).token);
    const code = (await call(owner, 'create_session', { name: 'Private' })).structuredContent.session.code;
    const storyId = (await call(owner, 'add_story', { code, title: 'Secret' })).structuredContent.story.id;
    const stranger = await connect((await tokenFor('Stranger', 'api')).token);
    const refused = await call(stranger, 'reveal_votes', { story_id: storyId });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/403/);
    expect((await call(owner, 'get_session', { code })).structuredContent.session.current_story.id).toBe(
      storyId,
    );
    const invalid = await call(owner, 'add_story', { code, title: '' });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]!.text).toMatch(/422|title/);
    await owner.close();
    await stranger.close();
  });

  it('imports a CSV and asks the assistant, through the integrations and ai units, as the caller', async () => {
    const owner = await connect((await tokenFor('Importer')).token);
    const created = await call(owner, 'create_session', { name: 'Imported' });
    const code = created.structuredContent.session.code as string;
    const csv =
      'title,description\n' +
      '"Search products","As a shopper, I want to search products, so that I find gifts quickly."\n' +
      'Checkout,"As a buyer, I want to pay with a saved card"\n';
    const imported = await call(owner, 'import_csv', { code, csv });
    expect(imported.isError).toBeFalsy();
    expect(imported.structuredContent.stories.map((s: { title: string }) => s.title)).toEqual([
      'Search products',
      'Checkout',
    ]);
    const looked = await call(owner, 'get_session', { code });
    expect(looked.structuredContent.session.current_story.title).toBe('Search products');

    const analysis = await call(owner, 'ai_analyze_story', {});
    expect(analysis.isError).toBe(true); // no session named: the endpoint's path needs its code
    const analyzed = await call(owner, 'ai_analyze_story', { code });
    expect(analyzed.isError).toBeFalsy();
    expect(analyzed.structuredContent).toMatchObject({ review_required: true, provider: 'builtin' });
    expect(analyzed.structuredContent.suggestions).toBeDefined();

    const stranger = await connect((await tokenFor('Outsider')).token);
    const refusedImport = await call(stranger, 'import_csv', { code, csv: 'title\nSneaky\n' });
    expect(refusedImport.isError).toBe(true);
    expect(refusedImport.content[0]!.text).toMatch(/40[34]/);
    const refusedAi = await call(stranger, 'ai_summary', { code });
    expect(refusedAi.isError).toBe(true);
    expect(refusedAi.content[0]!.text).toMatch(/40[34]/);
    const stories = await p.client.get(`/sessions/${code}/stories`);
    expect(stories.body.stories.map((s: { title: string }) => s.title)).toEqual([
      'Search products',
      'Checkout',
    ]);
    await owner.close();
    await stranger.close();
  });

  it('answers in JSON-RPC 2.0, as the API document says, not in the envelope', async () => {
    const { token } = await tokenFor('Raw client');
    const doc = await until(async () => {
      const got = (await p.client.get('/openapi.json')).body as OpenApiJson;
      return got.paths?.['/mcp']?.post?.requestBody ? got : undefined;
    });
    const headers = { accept: 'application/json, text/event-stream' };
    const ask = (body: unknown) => p.client.post('/mcp', { body, token, headers });
    const listed = await ask({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const unknown = await ask({ jsonrpc: '2.0', id: 'two', method: 'no/such/method' });
    const batch = await ask([
      { jsonrpc: '2.0', id: 3, method: 'ping' },
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
    ]);
    expect(listed.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } });
    expect(unknown.body).toMatchObject({ jsonrpc: '2.0', id: 'two', error: { code: -32601 } });
    expect(batch.body.map((answer: { id: number }) => answer.id)).toEqual([3, 4]);
    for (const res of [listed, unknown, batch]) {
      expect(res.status).toBe(200);
      expect(res.body.success).toBeUndefined();
      expect(differencesFromDocument(doc, 'POST', '/mcp', res)).toEqual([]);
    }
    // What the protocol refuses is a JSON-RPC error too: an Accept without text/event-stream, an unreadable message.
    const notAccepted = await p.client.post('/mcp', {
      body: { jsonrpc: '2.0', id: 5, method: 'ping' },
      token,
      headers: { accept: 'application/json' },
    });
    const unreadable = await ask({ jsonrpc: '2.0' });
    expect([notAccepted.status, unreadable.status]).toEqual([406, 400]);
    // JSON that is no JSON-RPC 2.0 message at all: the same JSON-RPC error, never the envelope's 422.
    const notMessages = await Promise.all(
      [{ jsonrpc: '1.0', id: 6, method: 'ping' }, {}, [], '"x"', 3, { id: 7, method: 'ping' }].map(ask),
    );
    for (const res of notMessages) {
      expect([res.status, res.body?.error?.code, res.body?.success]).toEqual([400, -32600, undefined]);
    }
    for (const res of [notAccepted, unreadable, ...notMessages])
      expect(differencesFromDocument(doc, 'POST', '/mcp', res)).toEqual([]);
    expect(doc.info.description).toMatch(/`success`[^.]*except[^.]*`POST \/mcp`[^.]*JSON-RPC/);
  });

  it('answers 401 without a token and 403 to an access token from signing in', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    const anonymous = await p.client.post('/mcp', { body: init });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/Bearer/);
    const { access } = await tokenFor('Signed in');
    const withAccess = await p.client.post('/mcp', { body: init, token: access });
    expect([withAccess.status, withAccess.body.error.code]).toEqual([403, 'token_kind_not_allowed']);
  });
});
