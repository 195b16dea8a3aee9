import type { RequestHandler, Response } from 'express';
import { httpDuration } from '@pp/http';
import type { RouteEntry } from '../routes.ts';

type Observer = ReturnType<typeof httpDuration.labels>;

/**
 * The histogram's series by method, route and status, looked up by one string rather than by
 * prom-client hashing a labels object on every request. The labels are bounded (route-table
 * patterns), and so is this map.
 */
const series = new Map<string, Observer>();
const seriesOf = (method: string, route: string, status: number) => {
  const key = `${method} ${route} ${status}`;
  let observer = series.get(key);
  if (!observer) series.set(key, (observer = httpDuration.labels({ method, route, status: String(status) })));
  return observer;
};

const STARTED = Symbol('request started');
type Timed = Response & { [STARTED]: number };

/** One listener function for every response (no closure per request). */
function observe(this: Timed) {
  const route = this.locals.route as RouteEntry | undefined;
  const local = this.req.route?.path ? String(this.req.route.path) : undefined;
  seriesOf(this.req.method, route ? route.path : (local ?? 'unmatched'), this.statusCode).observe(
    (performance.now() - this[STARTED]) / 1000,
  );
}

/** Request durations labelled by route-table pattern (bounded labels) and unit. */
export const requestMetrics: RequestHandler = (_req, res, next) => {
  (res as Timed)[STARTED] = performance.now();
  res.on('finish', observe);
  next();
};
