import type { Request, Response } from 'express';
import { McpServer } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { Identity } from '@pp/http';
import { withoutCancellations } from '../domain/cancellations.ts';
import { tools } from '../domain/tools.ts';
import { callTool } from './shared/call-tool.ts';
import type { McpContext } from './shared/context.ts';

const INSTRUCTIONS =
  'Planning poker: create sessions, add stories, reveal votes and read the results. Participants join and ' +
  'vote with the session code over the API or the web room; votes stay secret until a story is revealed.';

/**
 * One MCP request (Streamable HTTP, stateless: no MCP session to keep between requests, so any replica
 * answers any request): a server with every tool for this caller, answering in JSON.
 */
export async function serveMcp(
  ctx: McpContext,
  caller: Identity,
  req: Request,
  res: Response,
  body: unknown,
) {
  const server = new McpServer({ name: 'planning-poker', version: '1.0.0' }, { instructions: INSTRUCTIONS });
  const inputs = ctx.inputs.current();
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: inputs.get(tool.name)!,
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
      },
      (args: unknown) => callTool(ctx, caller, tool, (args ?? {}) as Record<string, unknown>),
    );
  }
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, withoutCancellations(body));
}
