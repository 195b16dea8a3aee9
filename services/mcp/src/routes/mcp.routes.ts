import { Router, type RequestHandler } from 'express';
import { AppError, ForbiddenError, requireUser, signedIn, validate } from '@pp/http';
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

export function mcpRoutes(context: () => McpContext): Router {
  const router = Router();
  router.use('/mcp', signedIn, assistantToken);
  router.post(
    '/mcp',
    validate(api['POST /mcp'], async ({ body }, req, res) => {
      await serveMcp(context(), requireUser(req), req, res, body);
    }),
  );
  router.get('/mcp', notHere);
  router.delete('/mcp', notHere);
  return router;
}
