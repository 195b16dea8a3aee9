/** Launcher output: every line carries the name of the process it came from. */

const COLORS = [36, 32, 33, 35, 34, 91, 92, 93, 95, 96];
const useColor = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;

/** `[sessions ] line`, names padded to the same width so the columns line up. */
export function prefixLine(name: string, width: number, line: string, color?: number): string {
  const label = `[${name.padEnd(width)}]`;
  return color === undefined ? `${label} ${line}` : `\x1b[${color}m${label}\x1b[0m ${line}`;
}

const PINO_LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const OMITTED = new Set(['level', 'time', 'msg', 'service', 'name', 'pid', 'hostname']);

/**
 * A pino JSON line made readable for a terminal: `12:00:01 INFO  identity listening port=8081`.
 * Anything that is not a pino line comes back as it was.
 */
export function formatLogLine(line: string): string {
  if (!line.startsWith('{')) return line;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof entry.msg !== 'string' || entry.level === undefined) return line;
  const level =
    typeof entry.level === 'number' ? (PINO_LEVELS[entry.level] ?? String(entry.level)) : String(entry.level);
  const time =
    typeof entry.time === 'string' || typeof entry.time === 'number' ? new Date(entry.time) : undefined;
  const clock = time && !Number.isNaN(time.getTime()) ? `${time.toTimeString().slice(0, 8)} ` : '';
  const fields = Object.entries(entry)
    .filter(([k]) => !OMITTED.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${clock}${level.toUpperCase().padEnd(5)} ${[entry.msg, ...fields].join(' ')}`;
}

export interface LineWriter {
  (name: string, line: string): void;
}

/** A writer for a fixed set of names: each gets its own colour on a terminal. */
export function createLineWriter(
  names: readonly string[],
  out: (text: string) => void = (t) => process.stdout.write(t),
): LineWriter {
  const width = Math.max(...names.map((n) => n.length), 'launcher'.length);
  const colorOf = new Map(names.map((n, i) => [n, COLORS[i % COLORS.length]]));
  return (name, line) => {
    const color = useColor ? (colorOf.get(name) ?? 37) : undefined;
    out(`${prefixLine(name, width, line.replace(/\s+$/, ''), color)}\n`);
  };
}

export interface LauncherLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Lines of a child or a server, under its own name. */
  line(name: string, text: string): void;
}

/** `pretty` turns the units' JSON log lines into readable ones (the default on a terminal). */
export function createLauncherLog(
  names: readonly string[],
  pretty = Boolean(process.stdout.isTTY) && process.env.LAUNCHER_LOG_FORMAT !== 'json',
): LauncherLog {
  const write = createLineWriter(['launcher', ...names]);
  return {
    info: (m) => write('launcher', m),
    warn: (m) => write('launcher', `warning: ${m}`),
    error: (m) => write('launcher', `error: ${m}`),
    line: (name, text) => {
      for (const l of text.split(/\r?\n/)) if (l.trim()) write(name, pretty ? formatLogLine(l) : l);
    },
  };
}
