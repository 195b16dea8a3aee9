import { createApiClient } from '@pp/api-client';
import { errorText, lang } from '../i18n/i18n.ts';

/**
 * The room's calls go through the API's typed client (generated from the units' path descriptions):
 * the paths, parameters, bodies and answers are the API's own. This file turns a call's outcome into
 * the answer or an ApiError, and adds the caller's credentials.
 */

/** A refusal of the API, from its error envelope (`message`, `error.code`, `errors`). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: Record<string, string[]> | undefined;
  /** Seconds to wait before trying again, when the API said (a 429's Retry-After). */
  readonly retryAfter: number | undefined;
  constructor(
    status: number,
    code: string,
    message: string,
    errors?: Record<string, string[]>,
    retryAfter?: number,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.retryAfter = retryAfter;
  }
  /** The message with the fields it names: "Validation failed: title: is required". */
  describe(): string {
    const fields = Object.entries(this.errors ?? {}).map(([k, v]) => `${k}: ${v.join(', ')}`);
    return fields.length ? `${this.message} (${fields.join('; ')})` : this.message;
  }
}

/** Who calls: the access token when signed in, the participant token once seated in the room. */
export interface Credentials {
  token?: string | null;
  participantToken?: string | undefined;
  signal?: AbortSignal;
}

/**
 * The API on this page's origin. The fetch is looked up at each call (not once at load), and
 * nothing is cached: a room's state is read fresh.
 */
export const api = createApiClient(location.origin, {
  cache: 'no-store',
  headers: { accept: 'application/json' },
  fetch: (request) => fetch(request),
});

let onUnauthorized: () => void = () => undefined;
/** What to do when the access token is refused (expired, revoked): sign out. */
export const whenUnauthorized = (handler: () => void) => {
  onUnauthorized = handler;
};

/** The headers (and abort signal) of a call made with these credentials. */
export function as(c: Credentials) {
  const headers: Record<string, string> = {};
  if (c.token) headers.authorization = `Bearer ${c.token}`;
  if (c.participantToken) headers['x-participant-token'] = c.participantToken;
  return c.signal ? { headers, signal: c.signal } : { headers };
}

interface Envelope {
  success?: boolean;
  message?: string;
  error?: { code?: string };
  errors?: Record<string, string[]>;
}

function refusal(response: Response, body: Envelope | undefined): ApiError {
  const retry = response.headers.get('retry-after');
  const message =
    body?.message ??
    (response.status === 429
      ? `Too many requests: try again in ${retry ?? 'a few'} s`
      : `The server answered ${response.status}`);
  const wait = Number(retry);
  return new ApiError(
    response.status,
    body?.error?.code ?? 'http_error',
    message,
    body?.errors,
    retry !== null && Number.isFinite(wait) ? wait : undefined,
  );
}

/** A call's outcome as the typed client gives it. */
interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Awaits a call of the typed client: its answer when the API says `success`, else an ApiError. */
export async function answerOf<T>(call: Promise<Outcome<T>>, c: Credentials = {}): Promise<NonNullable<T>> {
  let outcome: Outcome<T>;
  try {
    outcome = await call;
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network', 'The server cannot be reached: check the connection and try again.');
  }
  const { data, error, response } = outcome;
  if (response.status === 401 && c.token) onUnauthorized();
  const body = (response.ok ? data : error) as Envelope | undefined;
  if (!response.ok || typeof body !== 'object' || !body?.success) throw refusal(response, body);
  return data as NonNullable<T>;
}

/** The answer of an export (a file, not the JSON envelope), or an ApiError. */
export async function fileOf(call: Promise<Outcome<unknown>>, c: Credentials = {}): Promise<Blob> {
  const { data, error, response } = await call;
  if (response.status === 401 && c.token) onUnauthorized();
  if (!response.ok) {
    const body = typeof error === 'object' ? (error as Envelope) : undefined;
    throw refusal(response, { message: `Export failed (${response.status})`, ...body });
  }
  return data as Blob;
}

/**
 * An error in the page's language: the text of the API's `error.code` when the page is not in
 * English and its catalog has one, else the API's own (English) message with the fields it names.
 */
export function describeError(err: unknown): string {
  if (!(err instanceof ApiError)) return errorText('unknown') ?? 'Something went wrong: try again.';
  const text = lang() === 'en' ? undefined : errorText(err.code);
  return text ?? err.describe();
}
