/**
 * The MCP server through the gateway on unusual but legitimate messages and conditions: a batch that
 * cancels one of its own requests, a tool input as large as its endpoint takes, a unit that stops
 * answering.
 */
import { startMcpPlatform, type McpPlatform } from './support/mcp.ts';

describe('the MCP server on unusual messages and conditions', () => {
  let p: McpPlatform;
  let token: string;
  beforeAll(async () => {
    p = await startMcpPlatform();
    ({ token } = await p.tokenFor('Protocol'));
  }, 60_000);
  afterAll(() => p.stop());

  const headers = { accept: 'application/json, text/event-stream' };
  const ask = (body: unknown) => p.client.post('/mcp', { body, token, headers });
  /** The ids a POST answered (a batch of one request is answered with the answer alone). */
  const answeredIds = (body: unknown) => [body].flat().map((a) => (a as { id: unknown }).id);

  it('answers a batch that cancels one of its own requests at once: the cancellation comes too late to stop anything', async () => {
    const started = Date.now();
    const cancelledAlone = await ask([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, reason: 'changed my mind' },
      },
    ]);
    const withOthers = await ask([
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } },
    ]);
    // The protocol lets a receiver ignore a cancellation; what it must not do is leave the POST unanswered.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect([cancelledAlone.status, withOthers.status]).toEqual([200, 200]);
    expect(answeredIds(cancelledAlone.body)).toEqual([1]);
    expect(answeredIds(withOthers.body)).toEqual([2, 3]);
  });

  it('imports through import_csv a CSV as large as the HTTP import takes (hundreds of kilobytes)', async () => {
    const client = await p.connect(token);
    const code = (await p.call(client, 'create_session', { name: 'Backlog' })).structuredContent.session
      .code as string;
    const rows = Array.from(
      { length: 500 },
      (_, i) => `Story ${i + 1},"${'As a user, I want it. '.repeat(28)}"`,
    );
    const csv = `title,description\n${rows.join('\n')}\n`;
    expect(csv.length).toBeGreaterThan(300_000);
    const imported = await p.call(client, 'import_csv', { code, csv });
    expect(imported.isError).toBeFalsy();
    expect(imported.structuredContent.stories).toHaveLength(500);
    await client.close();
  });

  it('gives a tool error, within the time the gateway waits, when a unit stops answering', async () => {
    const client = await p.connect(token);
    p.toSessions.mute();
    try {
      const started = Date.now();
      const listed = await p.call(client, 'list_sessions', {});
      expect(listed.isError).toBe(true);
      expect(listed.content[0]!.text).toMatch(/try again/);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      p.toSessions.restore();
      await client.close();
    }
  }, 30_000);
});
