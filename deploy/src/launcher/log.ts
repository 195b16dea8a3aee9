/** Launcher output: every line carries the name of the process it came from. */

const COLORS = [36, 32, 33, 35, 34, 91, 92, 93, 95, 96];
const useColor = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;

/** `[sessions ] line`, names padded to the same width so the columns line up. */
export function prefixLine(name: string, width: number, line: string, color?: number): string {
  const label = `[${name.padEnd(width)}]`;
  return color === undefined ? `${label} ${line}` : `\x1b[${color}m${label}\x1b[0m ${line}`;
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

export function createLauncherLog(names: readonly string[]): LauncherLog {
  const write = createLineWriter(['launcher', ...names]);
  return {
    info: (m) => write('launcher', m),
    warn: (m) => write('launcher', `warning: ${m}`),
    error: (m) => write('launcher', `error: ${m}`),
    line: (name, text) => {
      for (const l of text.split(/\r?\n/)) if (l.trim()) write(name, l);
    },
  };
}
