import { finished } from 'node:stream';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import type { Logger } from '@pp/logger';
import { AppError, NotFoundError, ServiceUnavailableError } from './errors.ts';
import { errorEnvelope, writeJson } from './envelope.ts';
import { issuesToErrors } from './validate.ts';

/** Turns an error that is not an AppError into one (e.g. a database outage into a 503), or leaves it. */
export type ErrorMapper = (err: unknown) => AppError | undefined;

/** Socket errors of a dependency that cannot be reached (or went away): a 503, never a 500. */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Errors of a dependency that is down become a 503 rather than a 500. */
export const connectionErrorMapper: ErrorMapper = (err) => {
  const e = err as { code?: string; name?: string; cause?: { code?: string } } | undefined;
  if (!e) return undefined;
  if (
    UNREACHABLE_CODES.has(e.code ?? '') ||
    UNREACHABLE_CODES.has(e.cause?.code ?? '') ||
    e.name === 'ConnectionException' ||
    e.name === 'BrokenCircuitError' ||
    e.name === 'OpenCircuitError'
  ) {
    return new ServiceUnavailableError(undefined, undefined, err);
  }
  return undefined;
};

function fromBodyParser(err: { type?: string; status?: number; code?: unknown }): AppError | undefined {
  // The body parser gives its decoder's failures (gzip, deflate, br or zstd data that is not what
  // its Content-Encoding says) as a 400 without a type of their own, keeping the decoder's code.
  if (err.type === undefined && err.status === 400 && typeof err.code === 'string')
    return new AppError(
      400,
      'invalid_content_encoding',
      'The request body could not be decoded as its Content-Encoding says',
    );
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError(400, 'invalid_json', 'The request body is not valid JSON');
    case 'entity.too.large':
      return new AppError(413, 'payload_too_large', 'The request body is too large');
    // A charset or Content-Encoding the parser cannot read is a media type it does not support.
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError(415, 'unsupported_encoding', 'The request body encoding is not supported');
    case 'request.aborted':
      return new AppError(400, 'request_aborted', 'The request was aborted');
    default:
      return undefined;
  }
}

export function toAppError(err: unknown, mappers: ErrorMapper[] = []): AppError | undefined {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError)
    return new AppError(422, 'validation_failed', 'The given data was invalid', {
      errors: issuesToErrors(err.issues),
    });
  const parsed = fromBodyParser(err as { type?: string });
  if (parsed) return parsed;
  for (const map of [...mappers, connectionErrorMapper]) {
    const mapped = map(err);
    if (mapped) return mapped;
  }
  return undefined;
}

/**
 * Sends once the rest of the request's body has been read off and dropped. An answer sent while the
 * client (the gateway) is still sending makes it lose the answer when the connection closes under
 * unread data; an error can come before the body is read (a content type or charset refused up front).
 * An answer that closes the connection anyway (a body over the size limit) does not wait for it.
 */
function afterBody(req: Request, res: Response, send: () => void): void {
  if (req.complete || res.getHeader('connection') === 'close') return send();
  req.resume();
  finished(req, () => send());
}

/** The one error middleware: known errors keep their status, anything else is a 500 with a generic message. */
export function errorHandler(logger: Logger, mappers: ErrorMapper[] = []): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const appError = toAppError(err, mappers);
    if (!appError) {
      logger.error({ err, method: req.method, path: req.path }, 'unhandled error');
      afterBody(req, res, () =>
        writeJson(res, 500, errorEnvelope('internal_error', 'Something went wrong on our side')),
      );
      return;
    }
    if (appError.status >= 500)
      logger.warn({ err: appError.cause ?? appError, code: appError.code }, appError.message);
    for (const [name, value] of Object.entries(appError.headers ?? {})) res.setHeader(name, value);
    afterBody(req, res, () =>
      writeJson(res, appError.status, errorEnvelope(appError.code, appError.message, appError.errors)),
    );
  };
}

export const notFoundHandler: RequestHandler = (req) => {
  throw new NotFoundError(`No route for ${req.method} ${req.path}`, 'route_not_found');
};
