import { z } from 'zod';

/** A JSON-RPC message (or a batch of them): the MCP transport checks the rest of the protocol. */
const message = z.looseObject({ jsonrpc: z.literal('2.0') });
export const mcpBody = z.union([message, z.array(message).min(1).max(100)]).meta({
  id: 'McpMessage',
  description: 'A JSON-RPC 2.0 message of the Model Context Protocol, or a batch',
});

const id = z.union([z.string(), z.number()]);
const result = z
  .object({ jsonrpc: z.literal('2.0'), id, result: z.record(z.string(), z.unknown()) })
  .meta({ id: 'JsonRpcResult', description: 'The result of a request, under the id it was sent with' });
export const rpcError = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: id.nullable().meta({ description: 'null when the request could not be read' }),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
  })
  .meta({ id: 'JsonRpcError', description: 'A JSON-RPC error, e.g. -32601 for an unknown method' });
const answer = z.xor([result, rpcError]);

/** What POST /mcp answers: JSON-RPC 2.0 as it is, not in the API's envelope. */
export const mcpAnswer = z.xor([answer, z.array(answer).min(1)]).meta({
  id: 'McpAnswer',
  description: 'The JSON-RPC 2.0 answer (`result` or `error`) to a request, or an array of them for a batch',
});
