import type { RequestHandler } from 'express';
import { httpDuration } from '@pp/http';
import type { RouteEntry } from '../routes.ts';

/** Request durations labelled by route-table pattern (bounded labels) and unit. */
export const requestMetrics: RequestHandler = (req, res, next) => {
  const end = httpDuration.startTimer();
  res.once('finish', () => {
    const route = res.locals.route as RouteEntry | undefined;
    const local = req.route?.path ? String(req.route.path) : undefined;
    end({
      method: req.method,
      route: route ? route.path : (local ?? 'unmatched'),
      status: String(res.statusCode),
    });
  });
  next();
};
