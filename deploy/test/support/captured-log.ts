import type { LauncherLog } from '../../src/launcher/log.ts';

/** A launcher log that keeps its lines (`launcher: ...`, `<unit>: ...`) for a test to read. */
export function capturedLog() {
  const lines: string[] = [];
  const log: LauncherLog = {
    info: (m) => lines.push(`launcher: ${m}`),
    warn: (m) => lines.push(`launcher: ${m}`),
    error: (m) => lines.push(`launcher: ${m}`),
    line: (name, text) => lines.push(`${name}: ${text}`),
  };
  return { lines, log };
}
