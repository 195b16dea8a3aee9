import type { Express } from 'express';
import { AppError } from './errors.ts';

/** A part of the API that is not built yet: 503 with the envelope, and when to ask again. */
export class NotAvailableError extends AppError {
  constructor(unit: string) {
    super(503, 'not_available', `This part of the API (${unit}) is not available yet`, {
      headers: { 'Retry-After': '3600' },
    });
  }
}

/** Paths of a unit whose features are not available yet answer 503 with the envelope. */
export function mountNotYetAvailable(app: Express, paths: string[], unit: string): void {
  for (const path of paths) {
    app.all(path, () => {
      throw new NotAvailableError(unit);
    });
  }
}
