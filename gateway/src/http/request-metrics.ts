import type { RequestHandler, Response } from 'express';
import { httpDuration } from '@pp/http';
import type { RouteEntry } from '../routes.ts';

type Observer = ReturnType<typeof httpDuration.labels>;

/**
 * The histogram's series by route, method and status, looked up through maps keyed by those values
 * themselves: no key string is built per request. The labels are bounded (route-table patterns),
 * and so are these maps.
 */
const series = new Map<string, Map<string, Map<number, Observer>>>();
const seriesOf = (method: string, route: string, status: number) => {
  let byMethod = series.get(route);
  if (!byMethod) series.set(route, (byMethod = new Map()));
  let byStatus = byMethod.get(method);
  if (!byStatus) byMethod.set(method, (byStatus = new Map()));
  let observer = byStatus.get(status);
  if (!observer)
    byStatus.set(status, (observer = httpDuration.labels({ method, route, status: String(status) })));
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
