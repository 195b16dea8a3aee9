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

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** The access token, when signed in. */
  token?: string | null;
  participantToken?: string;
  signal?: AbortSignal;
}

let onUnauthorized: () => void = () => undefined;
/** What to do when the access token is refused (expired, revoked): sign out. */
export const whenUnauthorized = (handler: () => void) => {
  onUnauthorized = handler;
};

function headersFor(o: CallOptions, accept: string) {
  const headers: Record<string, string> = { accept };
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.participantToken) headers['x-participant-token'] = o.participantToken;
  return headers;
}

/** One request to the API on this origin; the resource of the answer, or an ApiError. */
export async function request(path: string, o: CallOptions = {}, accept = 'application/json') {
  let res: Response;
  try {
    res = await fetch(path, {
      method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
      headers: headersFor(o, accept),
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
      signal: o.signal,
      cache: 'no-store',
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network', 'The server cannot be reached: check the connection and try again.');
  }
  if (res.status === 401 && o.token) onUnauthorized();
  return res;
}

/** A JSON call: the envelope's fields on success. */
// The answer's shape is the caller's to state (see types.ts).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function call<T = any>(path: string, o: CallOptions = {}): Promise<T> {
  const res = await request(path, o);
  const body = await res.json().catch(() => undefined);
  if (!res.ok || !body?.success) {
    const retry = res.headers.get('retry-after');
    const message =
      body?.message ??
      (res.status === 429
        ? `Too many requests: try again in ${retry ?? 'a few'} s`
        : `The server answered ${res.status}`);
    const wait = Number(retry);
    throw new ApiError(
      res.status,
      body?.error?.code ?? 'http_error',
      message,
      body?.errors,
      retry !== null && Number.isFinite(wait) ? wait : undefined,
    );
  }
  return body as T;
}

export const describeError = (err: unknown) =>
  err instanceof ApiError ? err.describe() : 'Something went wrong: try again.';
