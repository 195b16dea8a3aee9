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
