import type { Response } from 'express';

export type Payload = Record<string, unknown>;

/** The success envelope: the payload under its resource-named keys and again under `data`. */
export function envelope(payload: Payload, message?: string) {
  return { success: true as const, ...payload, data: payload, ...(message ? { message } : {}) };
}

export function errorEnvelope(code: string, message: string, errors?: Record<string, string[]>) {
  return { success: false as const, message, error: { code }, ...(errors ? { errors } : {}) };
}

export function send(res: Response, status: number, payload: Payload, message?: string): void {
  res.status(status).json(envelope(payload, message));
}

/**
 * An answer to another unit (an internal route): the payload's keys alone, which is what units read
 * (the public envelope's copy under `data` would double what is written and parsed: a session's
 * stories with their texts run to hundreds of KB), and no ETag (no unit asks conditionally, so the
 * hash of the body would be work for nothing).
 */
export function sendToUnit(res: Response, status: number, payload: Payload): void {
  res
    .status(status)
    .type('json')
    .end(JSON.stringify({ success: true, ...payload }));
}
