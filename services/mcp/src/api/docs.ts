import { z } from 'zod';
import { errorEnvelopeSchema, type UnitDocs } from '@pp/http';
import { mcpAnswer, mcpBody, rpcError } from './schemas.ts';

const KINDS =
  'With an `mcp` or an `api` token (`POST /auth/tokens`); an access token from signing in is refused (403 `token_kind_not_allowed`): ' +
  'give an assistant a token of its own, which you can revoke without signing out.';

/**
 * The Model Context Protocol over Streamable HTTP, stateless: each POST is answered in JSON, and there is
 * no server-to-client stream nor MCP session to end.
 */
export const docs = {
  'POST /mcp': {
    summary: 'MCP server (Streamable HTTP): JSON-RPC messages',
    description:
      'The API as tools for AI assistants: create_session, list_sessions, get_session, add_story, set_current_story, ' +
      'reveal_votes, start_quick_vote, start_countdown, stop_countdown, get_activity, get_analytics, import_csv and one ai_* tool per AI endpoint (`tools/list` describes ' +
      "each with its inputs: the endpoint's own body, and `code` / `story_id` for the path). A tool acts as the caller: " +
      'a refusal (403, 404, 422) is a tool result with `isError: true` and the message. ' +
      'The protocol answers in JSON-RPC 2.0, not in the envelope: `Accept` must name both `application/json` and ' +
      '`text/event-stream` (else 406), and a message the protocol cannot read is a 400, both with a JSON-RPC error. ' +
      KINDS,
    body: mcpBody,
    responses: {
      200: {
        description:
          'The JSON-RPC answer: a `result`, or an `error` (e.g. code -32601 for an unknown method)',
        content: { 'application/json': mcpAnswer },
      },
      202: { description: 'A notification or a response was accepted' },
      400: {
        description:
          'The body is not JSON (the envelope), or not a JSON-RPC message of the protocol (a JSON-RPC error)',
        content: { 'application/json': z.xor([errorEnvelopeSchema, rpcError]) },
      },
      403: { description: 'An access token (`token_kind_not_allowed`): use an mcp or api token' },
      406: {
        description:
          '`Accept` does not name both `application/json` and `text/event-stream` (a JSON-RPC error)',
        content: { 'application/json': rpcError },
      },
    },
  },
  'GET /mcp': {
    summary: 'MCP server: no server-to-client stream (405)',
    description:
      'This server is stateless and answers every request in JSON: there is no stream to open. ' + KINDS,
    responses: { 405: { description: 'Method not allowed (`Allow: POST`)' } },
  },
  'DELETE /mcp': {
    summary: 'MCP server: no MCP session to end (405)',
    description: 'This server is stateless: there is no MCP session to end. ' + KINDS,
    responses: { 405: { description: 'Method not allowed (`Allow: POST`)' } },
  },
} satisfies UnitDocs;
