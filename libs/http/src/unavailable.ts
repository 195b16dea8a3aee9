import type { Express } from 'express';
import { AppError } from './errors.ts';

/** Paths of a unit whose features are not available yet answer 503 with the envelope. */
export function mountNotYetAvailable(app: Express, paths: string[], unit: string): void {
  for (const path of paths) {
    app.all(path, () => {
      throw new AppError(503, 'not_available', `This part of the API (${unit}) is not available yet`, {
        headers: { 'Retry-After': '3600' },
      });
    });
  }
}
