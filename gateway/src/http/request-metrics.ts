import type { RequestHandler } from 'express';
import { httpDuration } from '@pp/http';
import type { RouteEntry } from '../routes.ts';

type Observer = ReturnType<typeof httpDuration.labels>;

/**
 * The histogram's series by method, route and status, looked up by one string rather than by
 * prom-client hashing a labels object on every request. The labels are bounded (route-table
 * patterns), and so is this map.
 */
const series = new Map<string, Observer>();
const seriesOf = (method: string, route: string, status: string) => {
  const key = `${method} ${route} ${status}`;
  let observer = series.get(key);
  if (!observer) series.set(key, (observer = httpDuration.labels({ method, route, status })));
  return observer;
};

/** Request durations labelled by route-table pattern (bounded labels) and unit. */
export const requestMetrics: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const route = res.locals.route as RouteEntry | undefined;
    const local = req.route?.path ? String(req.route.path) : undefined;
    seriesOf(req.method, route ? route.path : (local ?? 'unmatched'), String(res.statusCode)).observe(
      Number(process.hrtime.bigint() - started) / 1e9,
    );
  });
  next();
};
