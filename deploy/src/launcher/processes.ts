import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { execa, type ResultPromise } from 'execa';
import type { LauncherLog } from './log.ts';

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  /** The complete environment (nothing else is inherited). */
  env?: Record<string, string>;
  /** Who it runs as (PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
  /** What stop() asks it to stop with (SIGTERM unless its own fast, clean stop is another signal). */
  stopSignal?: NodeJS.Signals;
  /** What killNow() sends (SIGKILL unless a server must rather be asked to stop at once). */
  killSignal?: NodeJS.Signals;
  /** An exit with this status is final: no restart (a unit whose settings are wrong fails the same way again). */
  finalExitCode?: number;
}

/** Wait before restart attempt n (1-based): 0.5 s, 1 s, 2 s, ... capped at 30 s. */
export function restartDelay(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, attempt - 1));
}

/** A process that ran this long is considered healthy again: its next crash starts the backoff afresh. */
const STABLE_AFTER_MS = 30_000;

function forwardLines(stream: Readable | null | undefined, onLine: (line: string) => void): void {
  if (!stream) return;
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
}

/**
 * One child process of the launcher, in its own process group so that the launcher decides when it stops,
 * restarted with backoff when it dies on its own.
 */
export class ManagedProcess {
  readonly spec: ProcessSpec;
  private readonly log: LauncherLog;
  private child: ResultPromise | undefined;
  private exited: Promise<void> = Promise.resolve();
  private stopping = false;
  private attempts = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  /** How often it died on its own. */
  crashes = 0;
  /** Set when it exited with its finalExitCode: its last lines of output, which say why. */
  gaveUp: string[] | undefined;
  private readonly recent: string[] = [];

  private readonly onSpawn: () => void;

  constructor(spec: ProcessSpec, log: LauncherLog, onSpawn: () => void = () => undefined) {
    this.spec = spec;
    this.log = log;
    this.onSpawn = onSpawn;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  /** Starts it (again, after stop() or kill()): from now on a death of its own is restarted with backoff. */
  start(): void {
    this.stopping = false;
    this.gaveUp = undefined;
    const { name, command, args, cwd, env, uid, gid } = this.spec;
    const startedAt = Date.now();
    const child = execa(command, args, {
      cwd,
      env,
      uid,
      gid,
      extendEnv: env === undefined,
      detached: true,
      cleanup: false,
      stdin: 'ignore',
      buffer: false,
      reject: false,
    });
    this.child = child;
    this.onSpawn();
    const onLine = (line: string) => {
      this.recent.push(line);
      if (this.recent.length > 20) this.recent.shift();
      this.log.line(name, line);
    };
    forwardLines(child.stdout, onLine);
    forwardLines(child.stderr, onLine);
    this.exited = child.then((result) => {
      this.child = undefined;
      if (this.stopping) return;
      this.crashes++;
      if (result.exitCode !== undefined && result.exitCode === this.spec.finalExitCode) {
        this.gaveUp = [...this.recent];
        this.log.error(`${name} exited with status ${result.exitCode}: not restarted (see its lines above)`);
        return;
      }
      if (Date.now() - startedAt > STABLE_AFTER_MS) this.attempts = 0;
      const delay = restartDelay(++this.attempts);
      const how = result.signal ? `signal ${result.signal}` : `code ${result.exitCode}`;
      this.log.warn(
        `${name} exited unexpectedly (${how}); restarting in ${delay} ms (attempt ${this.attempts})`,
      );
      this.restartTimer = setTimeout(() => this.start(), delay);
    });
  }

  private signalGroup(signal: NodeJS.Signals, pid = this.child?.pid): void {
    if (!pid) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  }

  /** Its stop signal to its process group, then SIGKILL for whatever is left after the grace period. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const pid = this.child?.pid;
    if (!pid) return;
    this.signalGroup(this.spec.stopSignal ?? 'SIGTERM', pid);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      this.exited.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) this.log.warn(`${this.spec.name} did not stop within ${graceMs} ms; killing it`);
    // Also reaches anything the process started itself and left behind.
    this.signalGroup('SIGKILL', pid);
    await this.exited;
  }

  /**
   * SIGKILL to its process group, as a crash of the machine it runs on would end it. With `restart` the
   * launcher sees an unexpected death and restarts it with backoff; without, it stays down until start().
   */
  async kill({ restart }: { restart: boolean }): Promise<void> {
    if (!restart) {
      this.stopping = true;
      clearTimeout(this.restartTimer);
    }
    this.signalGroup('SIGKILL');
    await this.exited;
  }

  /** Last resort when the launcher itself exits: synchronous, no waiting. */
  killNow(): void {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    this.signalGroup(this.spec.killSignal ?? 'SIGKILL');
  }
}
