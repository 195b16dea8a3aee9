import express from 'express';
import { createLogger } from '@pp/logger';
import { listen, UNIT_OPENAPI_PATH, type RunningServer } from '@pp/http';
import { until } from '@pp/testing';
import { listenToUnitDescriptions } from './unit-descriptions.ts';

const KEY = 'k'.repeat(40);
/**
 * How long a unit may stay silent at the start before the gateway says so: long enough for several
 * asks (every 20 ms) even on a busy machine, where the first ask's failure has come over a second late.
 */
const GRACE_MS = 3_000;

/** A unit whose description endpoint answers 503 until it is told to answer. */
async function startingUnit(): Promise<RunningServer & { ready(): void; down(): void }> {
  let status = 503;
  const app = express();
  app.get(UNIT_OPENAPI_PATH, (_req, res) => {
    res.status(status).json(status === 200 ? { openapi: '3.1.0', paths: { '/x': {} } } : {});
  });
  const server = await listen(app, 0, '127.0.0.1');
  return Object.assign(server, {
    ready: () => (status = 200),
    down: () => (status = 503),
  });
}

describe('unit descriptions', () => {
  it('stay quiet while units start, say once that a unit is silent past the grace, and when it answers', async () => {
    const lines: Array<{ level: string; msg: string; unit?: string; time: string }> = [];
    const logger = createLogger({
      name: 'capture',
      level: 'debug',
      destination: { write: (l: string) => lines.push(JSON.parse(l) as (typeof lines)[number]) },
    });
    const unit = await startingUnit();
    const started = Date.now();
    const descriptions = listenToUnitDescriptions({
      units: { sessions: unit.url },
      caller: 'gateway',
      signingKey: KEY,
      logger,
      retryMs: 20,
      startGraceMs: GRACE_MS,
    });
    const warnings = () => lines.filter((l) => l.level === 'warn' || l.level === 'error');
    try {
      // (Waited for, not slept on: on a busy machine the asks come later, never in another order.)
      const [silent] = await until(async () => warnings().length > 0 && warnings(), 10_000);
      expect(silent).toEqual(
        expect.objectContaining({
          unit: 'sessions',
          msg: 'unit has not described its paths since the start: the route table alone describes them',
        }),
      );
      // Said once the grace was over, not before; until then, several failed asks (the breaker opening
      // among them) were logged at debug only.
      expect(Date.parse(silent!.time) - started).toBeGreaterThanOrEqual(GRACE_MS);
      const before = lines.slice(0, lines.indexOf(silent!));
      expect(before.filter((l) => l.msg === 'outbound call failed').length).toBeGreaterThan(1);
      expect(before.every((l) => l.level === 'debug' || l.level === 'trace')).toBe(true);

      unit.ready();
      await until(async () => descriptions.current().has('sessions'), 10_000);
      expect(descriptions.current().get('sessions')).toMatchObject({ paths: { '/x': {} } });
      expect(lines.filter((l) => l.msg === 'unit describes its paths')).toHaveLength(1);

      // A unit heard from that goes down again: said once, its description stays.
      unit.down();
      await descriptions.refresh(true);
      await descriptions.refresh(true);
      expect(warnings().slice(1)).toEqual([
        expect.objectContaining({
          unit: 'sessions',
          msg: 'unit does not describe its paths any more: its last description stays',
        }),
      ]);
      expect(descriptions.current().get('sessions')).toMatchObject({ paths: { '/x': {} } });
    } finally {
      descriptions.stop();
      await unit.close();
    }
  });

  it('ask nothing more once stopped, neither the silent units nor the heard ones', async () => {
    let asks = 0;
    const app = express();
    app.get(UNIT_OPENAPI_PATH, (_req, res) => {
      asks++;
      res.json({ openapi: '3.1.0', paths: {} });
    });
    const heard = await listen(app, 0, '127.0.0.1');
    const silent = await startingUnit();
    const descriptions = listenToUnitDescriptions({
      units: { sessions: heard.url, stories: silent.url },
      caller: 'gateway',
      signingKey: KEY,
      logger: createLogger({ name: 'quiet', level: 'silent' }),
      retryMs: 20,
      refreshMs: 40,
    });
    try {
      // Asked again and again while running: the heard unit on every renewal.
      await until(async () => asks >= 3, 10_000);
      descriptions.stop();
      // An ask already sent may still arrive; nothing is sent after it.
      await new Promise((r) => setTimeout(r, 100));
      const stoppedAt = asks;
      await new Promise((r) => setTimeout(r, 300));
      expect(asks).toBe(stoppedAt);
    } finally {
      descriptions.stop();
      await heard.close();
      await silent.close();
    }
  });
});
