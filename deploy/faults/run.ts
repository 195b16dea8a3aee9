/**
 * `npm run test:faults`: the whole system under mixed traffic while faults are injected one at a time,
 * then a check of everything the 2xx answers promised. Prints a table; exits 1 when a check fails.
 *
 *   npm run test:faults                 the scaled-out layout (two of every unit, three NATS servers)
 *   npm run test:faults -- --plain      one of every unit, on a PostgreSQL and a NATS of its own
 *   npm run test:faults -- --short      a shorter run (CI); --seconds N sets the traffic's time
 */
import { copyFileSync, createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LauncherLog } from '../src/launcher/log.ts';
import { repoRoot } from '../src/launcher/units.ts';
import { createApi } from './api.ts';
import { timeToWrite } from './check-service.ts';
import { check } from './checker.ts';
import { closeClient } from './client.ts';
import { Ledger } from './ledger.ts';
import { startCluster } from './cluster-layout.ts';
import { startPlain } from './plain-layout.ts';
import { drainOutboxes, readBack } from './read-back.ts';
import { formatFindings, formatRefusals, formatReport } from './report.ts';
import { runSchedule } from './schedule.ts';
import { readSettings, type RunSettings } from './settings.ts';
import type { Target } from './target.ts';
import { prepareRoom, signUpOwner } from './setup.ts';
import { driveTraffic, revealTheRest } from './traffic.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

const began = Date.now();
const say = (line: string) =>
  console.log(`[faults ${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The system's own lines go to a file (shown in part when the run fails), not to the terminal. */
function fileLog(path: string): LauncherLog {
  const out = createWriteStream(path, { flags: 'a' });
  const write = (name: string, text: string) => out.write(`[${name}] ${text}\n`);
  return {
    info: (m) => write('launcher', m),
    warn: (m) => write('launcher', `warning: ${m}`),
    error: (m) => write('launcher', `error: ${m}`),
    line: write,
  };
}

async function startTarget(settings: RunSettings, dataDir: string, log: LauncherLog): Promise<Target> {
  return settings.layout === 'plain'
    ? startPlain(dataDir, log, settings)
    : startCluster(dataDir, log, settings);
}

async function exercise(target: Target, settings: RunSettings, title: string) {
  const receiver = await startWebhookReceiver();
  try {
    const owner = await signUpOwner(target.url, receiver.url);
    const prepared = [];
    for (let i = 0; i < settings.rooms; i++)
      prepared.push(
        await prepareRoom(target.url, owner, i, {
          clients: settings.clientsPerRoom,
          participants: 4,
          dropEveryMs: 8_000,
        }),
      );
    say(
      `${prepared.length} rooms, ${prepared.length * settings.clientsPerRoom} live clients; traffic starts`,
    );
    const ledger = new Ledger();
    const api = createApi(target.url, owner, ledger, settings.clientTimeoutMs);
    const rooms = prepared.map((p) => p.room);
    const startedAt = Date.now();
    let scheduleDone = false;
    // The traffic runs its time and until the last fault's recovery, and never past a hard limit.
    const stopped = () =>
      (scheduleDone && Date.now() - startedAt > settings.trafficMs) || Date.now() - startedAt > 3_600_000;
    const traffic = driveTraffic(api, rooms, { stopped, maxOperations: 100_000 });
    await pause(settings.warmUpMs);
    const recovered = (since: number) => timeToWrite(ledger.operations, since) !== undefined;
    const faults = await runSchedule(target.url, target.faults, { ...settings, recovered, log: say });
    scheduleDone = true;
    await traffic;
    say(`traffic stopped: ${ledger.operations.length} requests; revealing what is left, reading back`);
    for (const room of rooms) await revealTheRest(api, room);
    const outboxes = await drainOutboxes(() => target.outboxes(), 60_000);
    const final = await readBack(target.url, prepared, receiver);
    say('read back; checking');
    const verdict = check({
      operations: ledger.operations,
      rooms: final,
      clients: prepared.flatMap((p) => p.clients.map((c) => c.view)),
      deliveries: receiver.deliveries,
      outboxes,
      faults,
      upstreamTimeoutMs: settings.upstreamTimeoutMs,
      recoveryLimitMs: settings.recoveryLimitMs,
    });
    const reconnects = prepared.flatMap((p) => p.clients).reduce((n, c) => n + c.view.reconnects, 0);
    const extra = `live clients reconnected ${reconnects} times; webhook deliveries ${receiver.deliveries.length} (${receiver.refused} refused on purpose)`;
    const ledgerDump = JSON.stringify({ faults, operations: ledger.operations });
    return {
      verdict,
      ledgerDump,
      report: `${formatReport(verdict, title)}\n${extra}\n${formatRefusals(verdict)}`,
    };
  } finally {
    await receiver.close();
  }
}

async function main(): Promise<number> {
  const settings = readSettings(process.argv.slice(2));
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-faults-'));
  const logPath = join(dataDir, 'system.log');
  const title = `Fault run, ${settings.layout} layout${settings.short ? ' (short)' : ''}, ${new Date().toISOString().slice(0, 16)}Z`;
  say(title);
  const target = await startTarget(settings, dataDir, fileLog(logPath)).catch((err: unknown) => {
    say(`the system did not start; its log: ${logPath}`);
    throw err;
  });
  const interrupt = () => void target.stop().finally(() => process.exit(130));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  say(`system ready at ${target.url}`);
  const artifacts = join(repoRoot, 'test-artifacts', 'faults');
  const name = `${settings.layout}${settings.short ? '-short' : ''}`;
  mkdirSync(artifacts, { recursive: true });
  let passed = false;
  try {
    const { verdict, report, ledgerDump } = await exercise(target, settings, title);
    writeFileSync(join(artifacts, `last-${name}.json`), ledgerDump);
    console.log(`\n${report}\n`);
    if (!verdict.passed) console.log(formatFindings(verdict));
    writeFileSync(join(artifacts, `last-${name}.md`), `${report}\n\n${formatFindings(verdict)}\n`);
    passed = verdict.passed;
  } finally {
    closeClient();
    await target.stop();
    copyFileSync(logPath, join(artifacts, `last-${name}.log`));
    rmSync(dataDir, { recursive: true, force: true });
  }
  say(`table and the system's log in ${artifacts}`);
  return passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[faults] ${(err as Error).stack ?? String(err)}`);
    process.exit(2);
  },
);
