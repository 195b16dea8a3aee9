import { readdirSync, readFileSync } from 'node:fs';

/**
 * Where an operation's CPU goes, process by process: the CPU time (user + system) each named process
 * spent between two readings, from /proc (Linux). A latency that a machine cannot meet shows up here
 * as the milliseconds of CPU it costs on every core's worth of work.
 */
export interface CpuReading {
  /** Each process's name and milliseconds of CPU so far, by pid (this process's own as `load generator`). */
  readonly processes: ReadonlyMap<number, { name: string; ms: number }>;
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function ticksOf(pid: number | string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) in parentheses: utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined; // gone, or no /proc
  }
}

/** The pids of the machine's processes whose command name is one of `names` (e.g. every PostgreSQL backend). */
function pidsByCommand(names: ReadonlySet<string>): Map<string, number[]> {
  const found = new Map<string, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return found;
  }
  for (const pid of entries) {
    try {
      const command = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      if (names.has(command)) found.set(command, [...(found.get(command) ?? []), Number(pid)]);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * Reads the CPU time of the given processes (by name and pid), of every process running one of
 * `commands` (grouped under the command's name: `postgres`, `nats-server`), and of this process
 * itself as `load generator`.
 */
export function readCpu(
  processes: ReadonlyArray<{ name: string; pid: number | undefined }>,
  commands: string[],
) {
  const read = new Map<number, { name: string; ms: number }>();
  const add = (name: string, pid: number, ticks: number | undefined) => {
    if (ticks !== undefined) read.set(pid, { name, ms: (ticks * 1000) / TICKS_PER_SECOND });
  };
  for (const p of processes) if (p.pid) add(p.name, p.pid, ticksOf(p.pid));
  for (const [command, pids] of pidsByCommand(new Set(commands)))
    for (const pid of pids) add(command, pid, ticksOf(pid));
  const own = process.cpuUsage();
  read.set(process.pid, { name: 'load generator', ms: (own.user + own.system) / 1000 });
  return { processes: read } satisfies CpuReading;
}

/**
 * CPU per operation between two readings (ms), by name, largest first; the load generator apart from
 * the system's total. Each process counts what it spent between the readings, one that started in
 * between all it spent; one that ended in between takes its CPU with it (never what it spent before:
 * a pool that closes a busy connection meanwhile takes nothing from its name's other processes).
 */
export function cpuPerOperation(before: CpuReading, after: CpuReading, operations: number) {
  const byName = new Map<string, number>();
  for (const [pid, { name, ms }] of after.processes) {
    const earlier = before.processes.get(pid);
    // A pid taken by another process meanwhile is a process that started in between.
    const since = earlier?.name === name ? earlier.ms : 0;
    byName.set(name, (byName.get(name) ?? 0) + Math.max(0, ms - since));
  }
  const parts = [...byName]
    .map(([name, ms]) => ({ name, ms: ms / Math.max(1, operations) }))
    .sort((a, b) => b.ms - a.ms);
  const system = parts.filter((p) => p.name !== 'load generator');
  return { total: system.reduce((sum, p) => sum + p.ms, 0), parts };
}

/** `5.2 ms: postgres 1.8, stories 1.4, ... (load generator 0.4)`: the parts above 0.05 ms. */
export function formatCpu(cost: ReturnType<typeof cpuPerOperation>): string {
  const shown = cost.parts.filter((p) => p.name !== 'load generator' && p.ms >= 0.05);
  const generator = cost.parts.find((p) => p.name === 'load generator');
  return (
    `${cost.total.toFixed(1)} ms: ${shown.map((p) => `${p.name} ${p.ms.toFixed(1)}`).join(', ')}` +
    (generator ? ` (load generator ${generator.ms.toFixed(1)})` : '')
  );
}
