/**
 * The platform with the MCP unit beside it, behind the gateway, and what a test needs to drive it as an
 * assistant does: a token of its own, the MCP SDK's client over Streamable HTTP, a tool call.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createLogger } from '@pp/logger';
import { startStatelessService } from '@pp/runtime';
import { freePort, startTcpProxy } from '@pp/testing';
import { definition } from '../../services/mcp/src/app.ts';
import { readConfig } from '../../services/mcp/src/config.ts';
import { KEY, startPlatform } from './platform.ts';

const logger = createLogger({ name: 'mcp-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export interface ToolResult {
  isError?: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- what each tool answers, read as a test reads it
  structuredContent?: any;
  content: Array<{ type: string; text?: string }>;
}

export async function startMcpPlatform() {
  const port = await freePort();
  const p = await startPlatform({
    gatewayEnv: { MCP_URL: `http://127.0.0.1:${port}` },
    integrationsEnv: {},
    aiEnv: {},
  });
  // The MCP unit reaches the sessions unit through a proxy a test can mute (a unit that stops answering).
  const target = new URL(p.unitUrls.sessions);
  const toSessions = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
  const mcp = await startStatelessService(
    {
      ...definition(
        readConfig({
          PORT: String(port),
          INTERNAL_SIGNING_KEY: KEY,
          SESSIONS_URL: toSessions.url,
          STORIES_URL: p.unitUrls.stories,
          AI_URL: p.unitUrls.ai!,
          INTEGRATIONS_URL: p.unitUrls.integrations!,
        }),
      ),
      host: '127.0.0.1',
    },
    logger,
  );
  return {
    ...p,
    toSessions,
    /** A token of the given kind for a new account, and the account's access token. */
    async tokenFor(name: string, kind: 'mcp' | 'api' = 'mcp') {
      const access = await p.signUp(name);
      const res = await p.client.post('/auth/tokens', { body: { name: 'assistant', kind }, token: access });
      if (res.status !== 201) throw new Error(`POST /auth/tokens answered ${res.status}: ${res.text}`);
      return { access, token: res.body.token.token as string };
    },
    /** The MCP SDK's client, connected through the gateway with the token. */
    async connect(token: string) {
      const client = new Client({ name: 'planning-poker-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${p.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    },
    call: async (client: Client, name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as ToolResult,
    async stop() {
      await mcp.stop();
      await toSessions.close();
      await p.stop();
    },
  };
}

export type McpPlatform = Awaited<ReturnType<typeof startMcpPlatform>>;
