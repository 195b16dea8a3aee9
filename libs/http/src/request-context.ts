import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { runWithContext } from '@pp/logger';

export const REQUEST_ID_HEADER = 'x-request-id';
export const CORRELATION_ID_HEADER = 'x-correlation-id';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Honours an incoming request id (set by the gateway) or makes one; every log line of the request carries it. */
export const requestContext: RequestHandler = (req, res, next) => {
  const incoming = req.get(REQUEST_ID_HEADER);
  const requestId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
  const corr = req.get(CORRELATION_ID_HEADER);
  const correlationId = corr && SAFE_ID.test(corr) ? corr : requestId;
  req.headers[REQUEST_ID_HEADER] = requestId;
  req.headers[CORRELATION_ID_HEADER] = correlationId;
  res.setHeader('X-Request-Id', requestId);
  runWithContext({ requestId, correlationId }, () => next());
};
