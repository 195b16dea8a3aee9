import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNats } from '../src/launcher/nats.ts';
import { parseScale, scaleWarnings } from '../src/launcher/scale.ts';
import { isAlive } from '../src/launcher/stale.ts';
import { nodeBinary, repoRoot, units } from '../src/launcher/units.ts';
import { capturedLog } from './support/captured-log.ts';
import { freshRequest } from './support/fresh-request.ts';
import { standInSystem } from './support/stand-in-system.ts';

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('--replicas and --nats-cluster', () => {
  it('come from the command line, else from LAUNCHER_REPLICAS and LAUNCHER_NATS_CLUSTER, else 1', () => {
    expect(parseScale(['--replicas', '2', '--nats-cluster=3'], {})).toEqual({ replicas: 2, natsCluster: 3 });
    expect(parseScale([], { LAUNCHER_REPLICAS: '3', LAUNCHER_NATS_CLUSTER: '5' })).toEqual({
      replicas: 3,
      natsCluster: 5,
    });
    expect(parseScale(['--replicas', '4'], { LAUNCHER_REPLICAS: '3' }).replicas).toBe(4);
    expect(parseScale([], {})).toEqual({ replicas: 1, natsCluster: 1 });
  });

  it('refuse a bad value or an unknown option, naming it', () => {
    expect(() => parseScale(['--replicas', 'two'], {})).toThrow(/--replicas must be a whole number .*"two"/);
    expect(() => parseScale(['--nats-cluster', '0'], {})).toThrow(/--nats-cluster must be .*"0"/);
    expect(() => parseScale([], { LAUNCHER_REPLICAS: '1.5' })).toThrow(/LAUNCHER_REPLICAS must be/);
    expect(() => parseScale(['--replica', '2'], {})).toThrow(/--replica/);
  });

  it('stop npm start before it starts anything when a value is bad, naming the option', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pp-bad-scale-'));
    try {
      const run = spawnSync(
        nodeBinary(),
        [join(repoRoot, 'deploy/src/launcher/main.ts'), '--replicas', '2', '--nats-cluster', 'three'],
        { env: { PATH: process.env.PATH, LAUNCHER_DATA_DIR: dataDir }, encoding: 'utf8', timeout: 20_000 },
      );
      expect(run.stdout + run.stderr).toMatch(
        /--nats-cluster must be a whole number from 1 to 7, not "three"/,
      );
      expect(run.status).toBe(2);
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuse a NATS cluster beside a NATS_URL, which names a server the launcher does not run', async () => {
    await expect(
      startNats({ NATS_URL: 'nats://127.0.0.1:4222' }, '/nonexistent', capturedLog().log, { clusterSize: 3 }),
    ).rejects.toThrow(/--nats-cluster .*unset NATS_URL/);
  });

  it('warn that without REDIS_URL every gateway replica counts requests alone', () => {
    expect(scaleWarnings({ replicas: 2, natsCluster: 1 }, {}).join()).toMatch(
      /2 times RATE_LIMIT_PER_MINUTE/,
    );
    expect(scaleWarnings({ replicas: 2, natsCluster: 1 }, { REDIS_URL: 'redis://r' })).toEqual([]);
    expect(scaleWarnings({ replicas: 1, natsCluster: 1 }, {})).toEqual([]);
  });
});

/** The launcher with stand-ins for the units: 2 replicas of each behind fronts, and 3 NATS servers. */
describe('the launcher scaled out', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-scaled-'));
  const { lines, log } = capturedLog();
  const system = standInSystem(dataDir, log, { replicas: 2, natsCluster: 3 });
  afterAll(async () => {
    await system.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs every unit twice behind a front, a cluster of three NATS servers, and lets a fault run kill them', async () => {
    const url = await system.start().catch((err: Error) => {
      throw new Error(`${err.message}\n${lines.slice(-30).join('\n')}`);
    });
    expect(system.frontUrl).toBe(url);
    expect(system.natsUrl!.split(',')).toHaveLength(3);
    const procs = system.processes();
    expect(procs).toHaveLength(units.length * 2);
    expect(procs.filter((p) => p.name === 'gateway').map((p) => p.replica)).toEqual([1, 2]);
    expect(lines.some((l) => /REDIS_URL is not set/.test(l))).toBe(true);
    // A launch after a hard kill of this one stops every replica it left behind: each is in the pid file.
    const recorded = readFileSync(join(dataDir, 'units.pid'), 'utf8').split('\n').map(Number);
    expect(recorded.sort()).toEqual(procs.map((p) => p.pid).sort());

    for (let i = 0; i < 6; i++) expect((await freshRequest(`${url}/healthz`)).status).toBe(200);
    const handed = Object.values(system.frontConnections().gateway!);
    expect(handed).toHaveLength(2);
    for (const count of handed) expect(count).toBeGreaterThanOrEqual(3);

    const victim = procs.find((p) => p.name === 'sessions' && p.replica === 1)!;
    await victim.kill();
    expect(isAlive(victim.pid!)).toBe(false);
    // The gateway's /readyz asks the sessions front, which skips the dead replica.
    for (let i = 0; i < 4; i++) expect((await freshRequest(`${url}/readyz`)).status).toBe(200);
    await until('the killed replica restarted', () => {
      const again = system.processes().find((p) => p.name === 'sessions' && p.replica === 1)!;
      return again.pid !== undefined && again.pid !== victim.pid;
    });

    const [first] = system.natsServers();
    expect(system.natsServers().map((s) => s.name)).toEqual(['nats-1', 'nats-2', 'nats-3']);
    await first!.kill();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(system.natsServers()[0]!.running).toBe(false); // no restart: a fault run decides when it returns
    await first!.start();
    expect(system.natsServers()[0]!.running).toBe(true);

    const pids = [...system.processes(), ...system.natsServers()].map((p) => p.pid);
    await system.stop();
    expect(pids.filter((pid) => pid && isAlive(pid))).toEqual([]);
  }, 90_000);
});
