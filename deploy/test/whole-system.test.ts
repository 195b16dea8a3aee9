import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LauncherLog } from '../src/launcher/log.ts';
import { isAlive, readPidFile } from '../src/launcher/stale.ts';
import { createSystem } from '../src/launcher/system.ts';
import { units } from '../src/launcher/units.ts';

const lines: string[] = [];
const log: LauncherLog = {
  info: (m) => lines.push(`launcher: ${m}`),
  warn: (m) => lines.push(`launcher: ${m}`),
  error: (m) => lines.push(`launcher: ${m}`),
  line: (name, text) => lines.push(`${name}: ${text}`),
};

/**
 * `npm start` for real: the gateway and every service from their own main.ts, with the launcher's own
 * PostgreSQL and NATS in a temp folder, until the gateway says every unit is ready.
 */
describe('the whole platform under the launcher', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-platform-'));
  const system = createSystem({
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn' },
    dataDir,
    log,
    readyTimeoutMs: 60_000,
    // Any free ports, so a running `npm start` on this machine does not matter.
    units: units.map((u) => ({ ...u, preferredPort: 0 })),
  });
  afterAll(async () => {
    await system.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gets every unit ready behind the gateway, and stops with nothing left running', async () => {
    const gatewayUrl = await system.start().catch((err: Error) => {
      throw new Error(`${err.message}\n${lines.slice(-40).join('\n')}`);
    });
    const res = await fetch(`${gatewayUrl}/readyz`);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(res.status).toBe(200);
    for (const unit of units.filter((u) => u.name !== 'gateway')) expect(body.checks[unit.name]).toBe('ok');

    const postgresPid = readPidFile(join(dataDir, 'postgres', 'postmaster.pid'))!;
    const natsPid = readPidFile(join(dataDir, 'nats', 'nats-server.pid'))!;
    const unitPids = readFileSync(join(dataDir, 'units.pid'), 'utf8').split('\n').map(Number);
    expect(unitPids).toHaveLength(units.length);
    await system.stop();
    expect([...unitPids, postgresPid, natsPid].filter(isAlive)).toEqual([]);
  }, 90_000);
});
