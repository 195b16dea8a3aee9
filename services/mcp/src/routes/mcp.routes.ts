import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { AppError, ForbiddenError, requireUser, signedIn, validate, ValidationError } from '@pp/http';
import { docs as api } from '../api/docs.ts';
import { serveMcp } from '../use-cases/serve-mcp.use-case.ts';
import type { McpContext } from '../use-cases/shared/context.ts';

/** Assistants use tokens of their own (mcp or api), which can be revoked on their own. */
const assistantToken: RequestHandler = (req, _res, next) => {
  const kind = requireUser(req).token_kind;
  if (kind !== 'mcp' && kind !== 'api')
    throw new ForbiddenError('Use an MCP or API token (POST /auth/tokens) for MCP', 'token_kind_not_allowed');
  next();
};

const notHere: RequestHandler = (_req, res) => {
  res.setHeader('Allow', 'POST');
  throw new AppError(
    405,
    'method_not_allowed',
    'This MCP server is stateless: send JSON-RPC messages with POST',
  );
};

/**
 * A body that is JSON but no JSON-RPC 2.0 message (`{}`, `"x"`, `jsonrpc` other than "2.0") is refused
 * as the protocol refuses what it cannot read: 400 with a JSON-RPC error (-32600 Invalid Request, id
 * null), not in the API's envelope, which an MCP client does not read.
 */
const invalidRequest: ErrorRequestHandler = (err, _req, res, next) => {
  if (!(err instanceof ValidationError)) return next(err);
  res.status(400).json({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message or batch' },
  });
};

export function mcpRoutes(context: () => McpContext): Router {
  const router = Router();
  router.use('/mcp', signedIn, assistantToken);
  router.post(
    '/mcp',
    validate(api['POST /mcp'], async ({ body }, req, res) => {
      await serveMcp(context(), requireUser(req), req, res, body);
    }),
  );
  router.use('/mcp', invalidRequest);
  router.get('/mcp', notHere);
  router.delete('/mcp', notHere);
  return router;
}
