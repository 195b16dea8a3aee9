import type { Response } from 'express';

export type Payload = Record<string, unknown>;

/** The success envelope: the payload under its resource-named keys and again under `data`. */
export function envelope(payload: Payload, message?: string) {
  return { success: true as const, ...payload, data: payload, ...(message ? { message } : {}) };
}

export function errorEnvelope(code: string, message: string, errors?: Record<string, string[]>) {
  return { success: false as const, message, error: { code }, ...(errors ? { errors } : {}) };
}

/**
 * Writes a JSON answer. An answer to a read (GET, HEAD) goes through express: its ETag lets the client
 * read again conditionally (304), and HEAD drops the body. Any other answer is written as it is, with
 * no ETag: an ETag names a representation the client could read again, which the answer to a change
 * (a vote, a new story) is not, so hashing its body would be work for nothing on every change.
 */
export function writeJson(res: Response, status: number, body: unknown): void {
  const method = res.req.method;
  if (method === 'GET' || method === 'HEAD') res.status(status).json(body);
  else writeJsonAsIs(res, status, body);
}

/** The body as JSON, with its length and type and nothing else (no ETag). */
function writeJsonAsIs(res: Response, status: number, body: unknown): void {
  res.status(status).type('json').end(JSON.stringify(body));
}

export function send(res: Response, status: number, payload: Payload, message?: string): void {
  writeJson(res, status, envelope(payload, message));
}

/**
 * An answer to another unit (an internal route): the payload's keys alone, which is what units read
 * (the public envelope's copy under `data` would double what is written and parsed: a session's
 * stories with their texts run to hundreds of KB), and no ETag (no unit asks conditionally, so the
 * hash of the body would be work for nothing).
 */
export function sendToUnit(res: Response, status: number, payload: Payload): void {
  writeJsonAsIs(res, status, { success: true, ...payload });
}
