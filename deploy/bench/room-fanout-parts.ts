/**
 * The parts of the room fan-out benchmark: a second replica of a running unit (the same settings, its
 * own port), the resident memory of a process, and live room clients that note when each event
 * reaches them (read as text, never parsed as JSON: the load generator shares the cores it measures).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { ephemeralPort } from '../src/launcher/ports.ts';
import { repoRoot } from '../src/launcher/units.ts';

/** The environment a running process was started with (Linux: /proc). */
export function environmentOf(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

/** Resident memory of a process now, in MB. */
export function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/**
 * One more replica of a unit: `entry` run with `env` (a running replica's) and the unit's Node
 * settings on a free port, once ready.
 */
export async function startReplica(
  entry: string,
  env: Record<string, string>,
  nodeOptions: readonly string[] = [],
) {
  const port = await ephemeralPort('127.0.0.1');
  const child: ChildProcess = spawn(process.execPath, [...nodeOptions, entry], {
    cwd: repoRoot,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${entry} did not get ready`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A live room client: how many events it got, and when each `story.revealed` came. */
export interface FanoutClient {
  events: number;
  revealedAt: number[];
  ended: boolean;
  close(): void;
}

/** Opens a live room stream on its own connection; resolves once the answer's head came (200). */
export function openClient(url: string): Promise<FanoutClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`stream answered ${res.statusCode}`));
      }
      const client: FanoutClient = { events: 0, revealedAt: [], ended: false, close: () => req.destroy() };
      // An event's `event:` line may be cut between two chunks: the end of the last one is kept.
      // (No space after the colon: the sessions unit writes `event:story.revealed`.)
      let carry = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const text = carry + chunk;
        let done = 0;
        for (let at = text.indexOf('event:'); at >= 0; at = text.indexOf('event:', done)) {
          const end = text.indexOf('\n', at);
          if (end < 0) {
            carry = text.slice(at);
            return;
          }
          client.events++;
          if (text.startsWith('event:story.revealed', at)) client.revealedAt.push(performance.now());
          done = end + 1;
        }
        // The start of an `event:` line may be at the very end.
        carry = text.slice(Math.max(done, text.length - 16));
      });
      res.on('close', () => (client.ended = true));
      resolve(client);
    });
    req.on('error', reject);
  });
}

/** The value at a quantile of sorted numbers. */
export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
