import {
  UniqueConstraintViolationException,
  ConnectionException,
  LockWaitTimeoutException,
} from '@mikro-orm/postgresql';
import { ConflictError, ServiceUnavailableError, type AppError } from '@pp/http';

/** Database errors in the platform's terms: a unique violation is a conflict, an outage a 503. */
export function databaseErrorMapper(err: unknown): AppError | undefined {
  if (err instanceof UniqueConstraintViolationException)
    return new ConflictError('This already exists', 'duplicate', err);
  if (err instanceof ConnectionException || err instanceof LockWaitTimeoutException) {
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

/** Runs the write; a unique violation becomes the given conflict error. */
export async function withUniqueAs<T>(conflict: () => AppError, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict();
    throw err;
  }
}
