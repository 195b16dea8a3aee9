import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive, readPidFile } from '../src/launcher/stale.ts';
import { units } from '../src/launcher/units.ts';
import { capturedLog } from './support/captured-log.ts';
import { standInSystem } from './support/stand-in-system.ts';

/** `npm start` in a second terminal while the first still runs, on the same data folder. */
describe('a second launch on the data folder of a running one', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-second-launch-'));
  const { lines, log } = capturedLog();
  const launch = () => standInSystem(dataDir, log);
  const first = launch();
  afterAll(async () => {
    await first.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const running = () => [
    ...readFileSync(join(dataDir, 'units.pid'), 'utf8').split('\n').map(Number),
    readPidFile(join(dataDir, 'postgres', 'postmaster.pid'))!,
    readPidFile(join(dataDir, 'nats', 'nats-server.pid'))!,
  ];

  it('stops before touching anything, naming the running one, which runs on; once that one stopped, a launch starts', async () => {
    const url = await first.start();
    const pids = running();
    expect(pids.filter(isAlive)).toHaveLength(units.length + 2);

    const second = launch();
    const outcome = await Promise.race([
      second.start().then(
        () => 'started',
        (err: Error) => err.message,
      ),
      new Promise((r) => setTimeout(() => r('still starting after 15 s'), 15_000)),
    ]);
    await second.stop();
    expect(outcome).toContain(`another launch (pid ${process.pid}) is running on ${dataDir}`);
    expect(lines.filter((l) => l.includes('left running by an earlier launch'))).toEqual([]);
    expect(pids.filter(isAlive)).toHaveLength(units.length + 2);
    expect(running()).toEqual(pids);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    await first.stop();
    const third = launch();
    try {
      await expect(third.start()).resolves.toMatch(/^http:/);
    } finally {
      await third.stop();
    }
  }, 90_000);
});
