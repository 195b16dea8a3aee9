import type { CallToolResult } from '@modelcontextprotocol/server';
import { isUuid } from '@pp/contracts';
import { AppError, type Identity } from '@pp/http';
import { splitArguments } from '../../domain/tool-input.ts';
import type { ToolSpec } from '../../domain/tools.ts';
import type { UnitAnswer } from '../../clients/units.client.ts';
import type { McpContext } from './context.ts';

const ENVELOPE = new Set(['success', 'data', 'message']);

/** A unit's answer as a tool result: the same object the HTTP endpoint gives, or its error. */
function resultOf(answer: UnitAnswer): CallToolResult {
  const { status, body } = answer;
  if (status >= 400) {
    const code = (body.error as { code?: string } | undefined)?.code ?? 'error';
    const message = typeof body.message === 'string' ? body.message : `The call failed with status ${status}`;
    const details = body.errors ? ` ${JSON.stringify(body.errors)}` : '';
    return {
      isError: true,
      content: [{ type: 'text', text: `${message} (${status} ${code})${details}` }],
      structuredContent: {
        status,
        error: { code },
        message,
        ...(body.errors ? { errors: body.errors } : {}),
      },
    };
  }
  const payload = Object.fromEntries(Object.entries(body).filter(([k]) => !ENVELOPE.has(k)));
  return { content: [{ type: 'text', text: JSON.stringify(payload) }], structuredContent: payload };
}

const failure = (message: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: message }],
});

async function getSession(ctx: McpContext, caller: Identity, args: Record<string, unknown>) {
  let code = typeof args.code === 'string' ? args.code : undefined;
  const id = typeof args.id === 'string' ? args.id : undefined;
  if (!code && !id) return failure("Give the session's code or its id.");
  if (!code) code = isUuid(id!) ? await ctx.units.sessionCode(id!) : undefined;
  if (!code) return failure('Session not found (404 session_not_found)');
  return resultOf(
    await ctx.units.asCaller(caller, 'sessions', {
      method: 'GET',
      path: '/sessions/{code}',
      pathParams: { code },
    }),
  );
}

/** A CSV import: the rows become the session's stories in order (one call, as over HTTP). */
async function importCsv(ctx: McpContext, caller: Identity, args: Record<string, unknown>) {
  if (typeof args.code !== 'string') return failure("Give the session's code.");
  return resultOf(
    await ctx.units.asCaller(caller, 'integrations', {
      method: 'POST',
      path: '/sessions/{code}/integrations/import-confirm',
      pathParams: { code: args.code },
      body: { provider: 'csv', csv: args.csv },
    }),
  );
}

/**
 * Calls what a tool stands for, as the caller (the units check ownership as they do over HTTP). A
 * refusal (403, 404, 422, ...) or a unit that cannot be reached is a tool error with the message,
 * never a protocol failure.
 */
export async function callTool(
  ctx: McpContext,
  caller: Identity,
  tool: ToolSpec,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  try {
    if (tool.kind !== 'endpoint')
      return tool.kind === 'get_session'
        ? await getSession(ctx, caller, args)
        : await importCsv(ctx, caller, args);
    const { pathParams, rest } = splitArguments(tool, args);
    const answer = await ctx.units.asCaller(caller, tool.unit, {
      method: tool.method,
      path: tool.path,
      pathParams,
      ...(tool.rest === 'query' ? { query: rest } : {}),
      ...(tool.rest === 'body' ? { body: rest } : {}),
    });
    return resultOf(answer);
  } catch (err) {
    if (err instanceof AppError) return failure(`${err.message} (${err.status} ${err.code})`);
    ctx.logger.warn({ err, tool: tool.name }, 'tool call failed');
    return failure('The tool failed on our side; try again shortly.');
  }
}
