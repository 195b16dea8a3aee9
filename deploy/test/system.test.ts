import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive, readPidFile } from '../src/launcher/stale.ts';
import { units } from '../src/launcher/units.ts';
import { capturedLog } from './support/captured-log.ts';
import { standInSystem } from './support/stand-in-system.ts';

const { lines, log } = capturedLog();
const pidsOf = (name: string) =>
  lines.flatMap((l) => (l.startsWith(`${name}: stand-in pid `) ? [Number(l.split(' ').at(-1))] : []));

/** The launcher end to end with stand-ins for the units: its own PostgreSQL and NATS in a temp folder. */
describe('the launcher', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-launcher-'));
  const system = standInSystem(dataDir, log);
  afterAll(async () => {
    await system.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts every unit, restarts one that dies, and on stop leaves no process behind', async () => {
    const gatewayUrl = await system.start().catch((err: Error) => {
      throw new Error(`${err.message}\n${lines.slice(-30).join('\n')}`);
    });
    expect((await fetch(`${gatewayUrl}/readyz`)).status).toBe(200);
    expect(lines.filter((l) => l.includes('stand-in listening')).length).toBe(units.length);

    const [sessions] = pidsOf('sessions');
    process.kill(sessions!, 'SIGKILL');
    for (let i = 0; i < 100 && pidsOf('sessions').length < 2; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(lines.some((l) => l.includes('sessions exited unexpectedly (signal SIGKILL)'))).toBe(true);
    expect(pidsOf('sessions')).toHaveLength(2);

    const natsPid = readPidFile(join(dataDir, 'nats', 'nats-server.pid'));
    const postgresPid = readPidFile(join(dataDir, 'postgres', 'postmaster.pid'));
    expect(natsPid && postgresPid).toBeTruthy();
    await system.stop();
    const children = units.flatMap((u) => pidsOf(u.name));
    expect([...children, natsPid!, postgresPid!].filter(isAlive)).toEqual([]);
  }, 60_000);
});
