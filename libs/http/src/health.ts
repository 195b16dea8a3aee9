import express, { type Router } from 'express';
import { within } from '@pp/async';

/** A readiness check: resolves when the dependency answers, rejects (or times out) when it does not. */
export type ReadinessCheck = () => Promise<unknown>;

export async function runChecks(checks: Record<string, ReadinessCheck>, timeoutMs = 1500) {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await within(timeoutMs, check(), () => new Error('timed out'));
        return [name, 'ok'] as const;
      } catch {
        return [name, 'down'] as const;
      }
    }),
  );
  const checksResult = Object.fromEntries(entries);
  const down = entries.filter(([, s]) => s === 'down').map(([n]) => n);
  return { ready: down.length === 0, checks: checksResult, down };
}

/** `/healthz`: the process is alive. `/readyz`: every dependency answers (503 naming what is down). */
export function healthRouter(
  checks: Record<string, ReadinessCheck>,
  isShuttingDown: () => boolean = () => false,
): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ success: true, status: 'ok', data: { status: 'ok' } });
  });
  router.get('/readyz', async (_req, res) => {
    const result = await runChecks(checks);
    const ready = result.ready && !isShuttingDown();
    const down = isShuttingDown() ? [...result.down, 'shutting_down'] : result.down;
    const body = { status: ready ? 'ready' : 'not_ready', checks: result.checks, ...(ready ? {} : { down }) };
    if (ready) {
      res.json({ success: true, ...body, data: body });
    } else {
      res.status(503).json({
        success: false,
        message: `Not ready: ${down.join(', ')}`,
        error: { code: 'not_ready' },
        ...body,
      });
    }
  });
  return router;
}
