import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_BAD_CONFIG, KNOWN_EXAMPLE_KEYS } from '@pp/config';
import { createSystem } from '../src/launcher/system.ts';
import { nodeBinary, repoRoot, units } from '../src/launcher/units.ts';
import { capturedLog } from './support/captured-log.ts';
import { standInFor, standInSystem } from './support/stand-in-system.ts';

/** A unit's main.ts run as `npm start`, compose and Kubernetes run it: its exit status and what it wrote. */
function run(entry: string, env: Record<string, string>) {
  const child = spawn(nodeBinary(), [join(repoRoot, entry)], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH!, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  // Loading a unit's modules takes a second alone, and has taken over 20 s beside the suite's other
  // whole-platform tests on two cores.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise<{ status: number | null; output: string }>((resolve) =>
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    }),
  );
}

describe('a bad setting', () => {
  jest.setTimeout(90_000);
  it.each(units.map((u) => [u.name, u.entry]))(
    'ends %s at once with the status that says so, naming the variable',
    async (_name, entry) => {
      const { status, output } = await run(entry, { LOG_LEVEL: 'loud' });
      expect(output).toMatch(/^Invalid configuration:\n {2}LOG_LEVEL: /m);
      expect(status).toBe(EXIT_BAD_CONFIG);
    },
  );

  it.each(['INTERNAL_SIGNING_KEY', 'TOKEN_SIGNING_KEY'])(
    'ends identity at once when %s is an example key once published in docker-compose.yml',
    async (variable) => {
      const good = {
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/pp_identity',
        INTERNAL_SIGNING_KEY: 'i'.repeat(43),
        TOKEN_SIGNING_KEY: 't'.repeat(43),
      };
      const example = KNOWN_EXAMPLE_KEYS.find((k) => k.includes(variable.split('_')[0]!.toLowerCase()))!;
      const entry = units.find((u) => u.name === 'identity')!.entry;
      const { status, output } = await run(entry, { ...good, [variable]: example });
      expect(output).toMatch(
        new RegExp(`^Invalid configuration:\\n {2}${variable}: is a published example key`, 'm'),
      );
      expect(status).toBe(EXIT_BAD_CONFIG);
    },
  );

  it('in PORT stops npm start before it starts anything, naming PORT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pp-bad-port-'));
    const system = createSystem({ env: { PORT: 'abc' }, dataDir, log: capturedLog().log, readyTimeoutMs: 1 });
    try {
      await expect(system.start()).rejects.toThrow('PORT must be a port number from 1 to 65535, not "abc"');
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('stops npm start at once, naming the unit and the variable, with no restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pp-bad-settings-'));
    const { lines, log } = capturedLog();
    const system = standInSystem(dataDir, log, {
      env: { RATE_LIMIT_PER_MINUTE: 'abc' },
      readyTimeoutMs: 40_000,
      // The real gateway, which reads RATE_LIMIT_PER_MINUTE; stand-ins for the services, on free ports.
      units: units.map((u) => (u.name === 'gateway' ? u : standInFor(u))),
    });
    const began = Date.now();
    try {
      await expect(system.start()).rejects.toThrow(
        /^gateway does not start with these settings:\n.*\n {4}RATE_LIMIT_PER_MINUTE: /,
      );
      expect(Date.now() - began).toBeLessThan(30_000);
      expect(lines.filter((l) => l.includes('restarting'))).toEqual([]);
    } finally {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
