import {
  ForeignKeyConstraintViolationException,
  UniqueConstraintViolationException,
  ConnectionException,
  LockWaitTimeoutException,
} from '@mikro-orm/postgresql';
import { ConflictError, ServiceUnavailableError, UNREACHABLE_CODES, type AppError } from '@pp/http';

/**
 * Socket errors, and PostgreSQL's SQLSTATEs for a server that cannot be reached or is going away, or
 * that could not give a lock in time: each is worth trying again shortly.
 */
const UNAVAILABLE_CODES = new Set([
  ...UNREACHABLE_CODES,
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '53300', // too_many_connections
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '55P03', // lock_not_available: a lock waited for past lock_timeout (see LOCK_WAIT_AT_MOST_MS)
]);
/** What the pg driver says when a connection drops or cannot be had in time (it sets no code). */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed/i;

/**
 * Whether the error means the database cannot be reached (down, restarting, out of connections) or
 * could not give a lock in time (one held too long elsewhere): MikroORM's PostgreSQL driver reports
 * these as plain driver exceptions, so the codes tell.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof ConnectionException || err instanceof LockWaitTimeoutException) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  if (err instanceof AggregateError && err.errors.some(isDatabaseUnavailable)) return true;
  return UNAVAILABLE_MESSAGE.test(err.message);
}

/**
 * Whether the same write may succeed when tried again: the database unreachable, or the write lost
 * to another (a deadlock, a serialization failure: SQLSTATE class 40). Any other error is about what
 * is written, and comes back every time it is.
 */
export function isRetryableDatabaseError(err: unknown): boolean {
  if (isDatabaseUnavailable(err)) return true;
  // 40001 serialization_failure, 40P01 deadlock_detected (MikroORM's exceptions keep the driver's code)
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('40');
}

/** Database errors in the platform's terms: a unique violation is a conflict, an outage a 503. */
export function databaseErrorMapper(err: unknown): AppError | undefined {
  if (err instanceof UniqueConstraintViolationException)
    return new ConflictError('This already exists', 'duplicate', err);
  if (isDatabaseUnavailable(err)) {
    return new ServiceUnavailableError(
      'The database is unavailable, try again shortly',
      'database_unavailable',
      err,
    );
  }
  return undefined;
}

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof UniqueConstraintViolationException;
}

/** A row refers to one that is not there (any more): a race with its deletion, for instance. */
export function isForeignKeyViolation(err: unknown): boolean {
  return err instanceof ForeignKeyConstraintViolationException;
}

/** Runs the write; a unique violation becomes the given conflict error. */
export async function withUniqueAs<T>(conflict: () => AppError, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict();
    throw err;
  }
}
