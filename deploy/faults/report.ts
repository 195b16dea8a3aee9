/** The run's table: requests, each fault's recovery, and the counts that must be 0. */
import type { Verdict } from './checker.ts';

const seconds = (ms: number | undefined) => (ms === undefined ? 'none' : `${(ms / 1000).toFixed(1)} s`);
const row = (label: string, value: string | number) =>
  `| ${label.padEnd(46)} | ${String(value).padStart(9)} |`;

export function formatReport(verdict: Verdict, title: string): string {
  const { requests, counts } = verdict;
  const lines = [
    `### ${title}`,
    '',
    row('requests', 'count'),
    `|${'-'.repeat(48)}|${'-'.repeat(11)}|`,
    row('sent', requests.sent),
    row('answered 2xx', requests.ok),
    row('answered 4xx (refused for the request)', requests.rejected),
    row('refused fast (5xx or no connection)', requests.refusedFast),
    row('hung (no answer within the client timeout)', requests.hung),
    '',
    `| ${'fault'.padEnd(38)} | 2xx / refused meanwhile | next write after start | after return | notes`,
    `|${'-'.repeat(40)}|${'-'.repeat(25)}|${'-'.repeat(24)}|${'-'.repeat(14)}|------`,
    ...verdict.faults.map((f) =>
      [
        `| ${f.name.padEnd(38)}`,
        `${`${f.during.ok} / ${f.during.refused}`.padStart(23)}`,
        seconds(f.firstWriteAfterStartMs).padStart(22),
        seconds(f.firstWriteAfterReturnMs).padStart(12),
        f.notes.join('; '),
      ]
        .join(' | ')
        .trimEnd(),
    ),
    '',
    row('check (must be 0)', 'count'),
    `|${'-'.repeat(48)}|${'-'.repeat(11)}|`,
    row('lost writes (2xx not in the final state)', counts['lost-write']),
    row('half-made changes (state without its event)', counts['half-change']),
    row('lost events (stream or webhook)', counts['lost-event']),
    row('duplicated events (stream or webhook)', counts['duplicate-event']),
    row('events out of order', counts['out-of-order']),
    row('hung requests', counts.hang),
    row('401 for a valid token', counts.unauthorized),
    row('bad refusals (no envelope, too slow)', counts['bad-refusal']),
    row('slow recoveries (> 10 s after the return)', counts['slow-recovery']),
    row('outages /readyz did not name', counts.readiness),
    row('outboxes not drained', counts.outbox),
    '',
    verdict.passed ? 'PASSED' : `FAILED: ${verdict.findings.length} findings`,
  ];
  return lines.join('\n');
}

/** The non-2xx answers by request, status and error code. */
export function formatRefusals(verdict: Verdict): string {
  return `non-2xx answers: ${verdict.refusals.map((r) => `${r.what} x${r.count}`).join(', ')}`;
}

/** The findings, grouped by kind, at most `perKind` of each. */
export function formatFindings(verdict: Verdict, perKind = 10): string {
  const byKind = new Map<string, string[]>();
  for (const f of verdict.findings) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f.detail]);
  return [...byKind]
    .map(([kind, details]) => {
      const more = details.length > perKind ? [`  ... and ${details.length - perKind} more`] : [];
      return [`${kind}:`, ...details.slice(0, perKind).map((d) => `  ${d}`), ...more].join('\n');
    })
    .join('\n');
}
