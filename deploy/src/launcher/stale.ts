import { existsSync, readFileSync } from 'node:fs';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid on the first line of a pid file (postmaster.pid, nats-server's -P file), when the file is there. */
export function readPidFile(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number.parseInt(readFileSync(file, 'utf8').split('\n')[0] ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The command line of a running process (Linux), to make sure a pid still names what we started. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

async function stopAndWait(pid: number, signal: NodeJS.Signals, group: boolean): Promise<void> {
  const target = group ? -pid : pid;
  try {
    process.kill(target, signal);
  } catch {
    return;
  }
  const deadline = Date.now() + 15_000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // gone, as it should be
  }
}

/**
 * A server left running by an earlier launch that was killed hard holds its data directory; stop it first.
 * Only a process whose command line mentions `marker` (its data directory) is touched.
 */
export async function stopStaleServer(
  pidFile: string,
  marker: string,
  signal: NodeJS.Signals,
  onStop: (pid: number) => void,
): Promise<void> {
  const pid = readPidFile(pidFile);
  if (!pid || !isAlive(pid) || !commandLine(pid).includes(marker)) return;
  onStop(pid);
  await stopAndWait(pid, signal, false);
}

/** Units left running by an earlier launch that was killed hard (each led its own process group). */
export async function stopStaleUnits(pidFile: string, marker: string, onStop: (pid: number) => void) {
  if (!existsSync(pidFile)) return;
  const pids = readFileSync(pidFile, 'utf8')
    .split('\n')
    .map((l) => Number.parseInt(l, 10))
    .filter((pid) => pid > 0 && isAlive(pid) && commandLine(pid).includes(marker));
  for (const pid of pids) onStop(pid);
  await Promise.all(pids.map((pid) => stopAndWait(pid, 'SIGTERM', true)));
}
