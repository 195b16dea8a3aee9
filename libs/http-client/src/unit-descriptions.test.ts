import express from 'express';
import { createLogger } from '@pp/logger';
import { listen, UNIT_OPENAPI_PATH, type RunningServer } from '@pp/http';
import { listenToUnitDescriptions } from './unit-descriptions.ts';

const KEY = 'k'.repeat(40);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
    const lines: Array<{ level: string; msg: string; unit?: string }> = [];
    const logger = createLogger({
      name: 'capture',
      level: 'debug',
      destination: { write: (l: string) => lines.push(JSON.parse(l) as (typeof lines)[number]) },
    });
    const unit = await startingUnit();
    const descriptions = listenToUnitDescriptions({
      units: { sessions: unit.url },
      caller: 'gateway',
      signingKey: KEY,
      logger,
      retryMs: 20,
      startGraceMs: 300,
    });
    const warnings = () => lines.filter((l) => l.level === 'warn' || l.level === 'error');
    try {
      await sleep(200);
      // Several failed asks inside the grace (the breaker opening among them): logged at debug only.
      expect(lines.filter((l) => l.msg === 'outbound call failed').length).toBeGreaterThan(1);
      expect(warnings()).toEqual([]);

      await sleep(400);
      expect(warnings()).toEqual([
        expect.objectContaining({
          unit: 'sessions',
          msg: 'unit has not described its paths since the start: the route table alone describes them',
        }),
      ]);

      unit.ready();
      await sleep(200);
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
});
