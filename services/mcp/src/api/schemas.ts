import { z } from 'zod';

/** A JSON-RPC message (or a batch of them): the MCP transport checks the rest of the protocol. */
const message = z.looseObject({ jsonrpc: z.literal('2.0') });
export const mcpBody = z.union([message, z.array(message).min(1).max(100)]).meta({
  id: 'McpMessage',
  description: 'A JSON-RPC 2.0 message of the Model Context Protocol, or a batch',
});
