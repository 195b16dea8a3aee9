import type { RequestHandler, Router } from 'express';
import express from 'express';
import client from 'prom-client';

/** One registry per process; every library registers its metrics here. */
export const registry = client.register;

function metric<T>(name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

export const httpDuration = metric(
  'http_request_duration_seconds',
  () =>
    new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    }),
);

/**
 * Every metric of the process labelled with its unit (`unit="sessions"`), wherever it is scraped
 * from: the dashboard and the alerts group by it. Called once, by the process's main.
 */
export function labelMetricsWith(unit: string): void {
  registry.setDefaultLabels({ unit });
}

export function histogram(
  name: string,
  help: string,
  labelNames: string[],
  buckets: number[],
): client.Histogram {
  return metric(name, () => new client.Histogram({ name, help, labelNames, buckets }));
}

export function gauge(name: string, help: string, labelNames: string[] = []): client.Gauge {
  return metric(name, () => new client.Gauge({ name, help, labelNames }));
}

export function counter(name: string, help: string, labelNames: string[] = []): client.Counter {
  return metric(name, () => new client.Counter({ name, help, labelNames }));
}

let defaultsCollected = false;

/** Records the duration of every request under its route pattern (not the raw path: bounded labels). */
export const metricsMiddleware: RequestHandler = (req, res, next) => {
  const end = httpDuration.startTimer();
  res.on('finish', () => {
    const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
    end({ method: req.method, route, status: String(res.statusCode) });
  });
  next();
};

export function metricsRouter(): Router {
  if (!defaultsCollected) {
    // The event-loop lag histogram samples the loop's delay once a second: its sampler is a timer
    // that wakes the process at this interval, busy or idle (prom-client's default, 10 ms, is a
    // hundred wake-ups a second in every process; at 100 ms it still cost an idle process about 0.5 ms
    // of CPU a second, against 0.07 at a second). The percentiles come from the samples since the
    // last scrape (15 to 60 at the usual intervals), enough to show a loop that is held up;
    // `nodejs_eventloop_lag_seconds`, measured at each scrape, is as precise as before.
    client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 1_000 });
    defaultsCollected = true;
  }
  const router = express.Router();
  router.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });
  return router;
}
