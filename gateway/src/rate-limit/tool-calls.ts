import type { RequestHandler } from 'express';
import { bufferBody } from '../http/buffered-body.ts';
import type { RouteEntry } from '../routes.ts';

/** JSON-RPC `tools/call` requests in a message or a batch; 0 for anything else (the unit answers it). */
export function toolCallsIn(body: Buffer): number {
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    return 0;
  }
  const isCall = (m: unknown) =>
    typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'tools/call';
  return Array.isArray(message) ? message.filter(isCall).length : isCall(message) ? 1 : 0;
}

/**
 * Each MCP tool call is a call to a unit, as a request through the gateway would be: a `POST /mcp`
 * costs its caller one hit per `tools/call` it holds (a batch of 100 costs 100), at least one. Its
 * body (size-limited) is read here to count them, then sent on as it came.
 */
export function costOfToolCalls(maxBytes: number): RequestHandler {
  return (req, res, next) => {
    const route = res.locals.route as RouteEntry;
    if (route.unit !== 'mcp' || req.method !== 'POST') return next();
    return bufferBody(req, maxBytes).then((body) => {
      res.locals.cost = Math.max(1, toolCallsIn(body));
      next();
    });
  };
}
