/**
 * Two launches on one machine never choose the same port: a port one process chose is passed over by
 * the others while it lives, let go when it exits, and taken over when it was killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { portReservations } from '../src/launcher/port-reservations.ts';
import { ephemeralRangeStart, findFreePort, isPortFree } from '../src/launcher/ports.ts';
import { nodeBinary, repoRoot } from '../src/launcher/units.ts';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Another process that chooses a port as a launch does (preferring `preferred`), says which, and lives on until told to exit. */
async function otherLaunch(preferred: number) {
  const script = `
    const { findFreePort } = await import(${JSON.stringify(join(repoRoot, 'deploy/src/launcher/ports.ts'))});
    console.log(await findFreePort(${preferred}));
    process.stdin.once('data', () => process.exit(0));
  `;
  const child = spawn(nodeBinary(), ['--input-type=module', '-e', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(Number(line)));
    child.once('exit', (code) => reject(new Error(`exited (${code}) before choosing`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    port,
    exit: async () => {
      child.stdin!.write('\n');
      await exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

describe('ports chosen by launches on one machine', () => {
  it('passes over a port another live process chose, however free it is, and takes it once that process is killed', async () => {
    const wanted = await findFreePort(0);
    const other = await otherLaunch(0);
    // The other process's port is not bound by anyone: only the record keeps this process off it.
    expect(await isPortFree(other.port)).toBe(true);
    expect(other.port).not.toBe(wanted);
    expect(await findFreePort(other.port)).not.toBe(other.port);
    await other.kill();
    expect(await findFreePort(other.port)).toBe(other.port);
  });

  it('lets its ports go when it exits', async () => {
    const other = await otherLaunch(0);
    const record = join(tmpdir(), 'planning-poker-ports', String(other.port));
    expect(readFileSync(record, 'utf8')).not.toBe(String(process.pid));
    await other.exit();
    expect(existsSync(record)).toBe(false);
  });

  it('chooses from below the range the system hands out by itself when the preferred port is taken', async () => {
    const taken = await findFreePort(0);
    for (let i = 0; i < 20; i++) {
      const port = await findFreePort(taken, new Set([taken]));
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(ephemeralRangeStart());
    }
  });
});

describe('portReservations', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-ports-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a port whose record is being written (no pid yet) or names a live process, and takes a dead one's", () => {
    const ports = portReservations(dir);
    writeFileSync(join(dir, '20001'), '');
    expect(ports.reserve(20001)).toBe(false);
    writeFileSync(join(dir, '20002'), String(process.ppid));
    expect(ports.reserve(20002)).toBe(false);
    // Beyond any pid the system hands out (pid_max is at most 2^22).
    writeFileSync(join(dir, '20003'), String(2 ** 22 + 1));
    expect(ports.reserve(20003)).toBe(true);
    expect(readFileSync(join(dir, '20003'), 'utf8')).toBe(String(process.pid));
  });

  it('clears the records of processes gone the first time it records a port, and only theirs', () => {
    writeFileSync(join(dir, '20005'), String(2 ** 22 + 1));
    writeFileSync(join(dir, '20006'), String(process.ppid));
    expect(portReservations(dir).reserve(20007)).toBe(true);
    expect([existsSync(join(dir, '20005')), existsSync(join(dir, '20006'))]).toEqual([false, true]);
  });

  it('keeps its own ports its own, and lets them all go', () => {
    const ports = portReservations(dir);
    expect(ports.reserve(20004)).toBe(true);
    expect(ports.reserve(20004)).toBe(true);
    expect(portReservations(dir).reserve(20004)).toBe(true); // the same process
    ports.releaseAll();
    expect(existsSync(join(dir, '20004'))).toBe(false);
  });
});
