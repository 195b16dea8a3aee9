/** The one error family: a stable snake_case code, an HTTP status and an optional cause. */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly errors?: Record<string, string[]>;
  readonly headers?: Record<string, string>;
  constructor(
    status: number,
    code: string,
    message: string,
    options: { cause?: unknown; errors?: Record<string, string[]>; headers?: Record<string, string> } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

export class BadRequestError extends AppError {
  constructor(message = 'Bad request', code = 'bad_request') {
    super(400, code, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required', code = 'unauthorized') {
    super(401, code, message, { headers: { 'WWW-Authenticate': 'Bearer' } });
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have access to this resource', code = 'forbidden') {
    super(403, code, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found', code = 'not_found') {
    super(404, code, message);
  }
}

export class ConflictError extends AppError {
  constructor(message = 'Conflict', code = 'conflict', cause?: unknown) {
    super(409, code, message, { cause });
  }
}

export class ValidationError extends AppError {
  constructor(errors: Record<string, string[]>, message = 'The given data was invalid') {
    super(422, 'validation_failed', message, { errors });
  }
}

/** Acting on another account's resource (a session, a folder, a webhook...): 403 `forbidden`. */
export class NotOwnerError extends ForbiddenError {
  constructor(what: string) {
    super(`Only the owner of this ${what} can do this`, 'forbidden');
  }
}

/**
 * What a path or a field names, when the caller owns it: `notFound` when there is no such thing, 403
 * when it is another account's.
 */
export function ownedBy<T extends { ownerId: string }>(
  found: T | null | undefined,
  ownerId: string,
  what: string,
  notFound: () => AppError,
): T {
  if (!found) throw notFound();
  if (found.ownerId !== ownerId) throw new NotOwnerError(what);
  return found;
}

/** An account that holds as many of something as it may (tokens, webhooks...): 409 `too_many_<things>`. */
export class LimitReachedError extends ConflictError {
  constructor(things: string, limit: number, described = things) {
    super(`An account has at most ${limit} ${described}: remove one first`, `too_many_${things}`);
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(
    message = 'A dependency is unavailable, try again shortly',
    code = 'service_unavailable',
    cause?: unknown,
  ) {
    super(503, code, message, { cause, headers: { 'Retry-After': '1' } });
  }
}
