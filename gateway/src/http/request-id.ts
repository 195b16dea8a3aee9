import type { RequestHandler } from 'express';
import { REQUEST_ID_HEADER, requestContext } from '@pp/http';

/**
 * Every request gets an id made here (a client's own is not trusted as one; it may send
 * X-Correlation-Id to follow its calls). Units honour the id, so one id runs through every log line.
 */
export const gatewayRequestId: RequestHandler = (req, res, next) => {
  delete req.headers[REQUEST_ID_HEADER];
  requestContext(req, res, next);
};
