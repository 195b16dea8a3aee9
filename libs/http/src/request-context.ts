import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { runWithContext } from '@pp/logger';

export const REQUEST_ID_HEADER = 'x-request-id';
export const CORRELATION_ID_HEADER = 'x-correlation-id';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const safe = (value: string | string[] | undefined) =>
  typeof value === 'string' && SAFE_ID.test(value) ? value : undefined;

function runRequest(req: Request, res: Response, next: NextFunction, requestId: string) {
  const correlationId = safe(req.headers[CORRELATION_ID_HEADER]) ?? requestId;
  req.headers[REQUEST_ID_HEADER] = requestId;
  // Sent on only when the caller named one: without it, the next unit takes the request id, as here.
  if (req.headers[CORRELATION_ID_HEADER] !== undefined) req.headers[CORRELATION_ID_HEADER] = correlationId;
  res.setHeader('X-Request-Id', requestId);
  runWithContext({ requestId, correlationId }, next);
}

/** Honours an incoming request id (set by the gateway) or makes one; every log line of the request carries it. */
export const requestContext: RequestHandler = (req, res, next) =>
  runRequest(req, res, next, safe(req.headers[REQUEST_ID_HEADER]) ?? randomUUID());

/**
 * The same at the edge, where a client's own request id is not trusted as one: every request gets a
 * new id (a client may send X-Correlation-Id to follow its calls).
 */
export const edgeRequestContext: RequestHandler = (req, res, next) =>
  runRequest(req, res, next, randomUUID());
