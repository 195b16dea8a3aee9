/** The checker: every check over what the run saw, and the counts the report prints. */
import { checkEvents } from './check-events.ts';
import { checkService, timeToWrite } from './check-service.ts';
import { checkWrites } from './check-writes.ts';
import type { Finding, FindingKind, Observations } from './observations.ts';

export interface FaultResult {
  name: string;
  /** From the fault's start to the end of the next 2xx write sent after it. */
  firstWriteAfterStartMs: number | undefined;
  /** From the dependency's return to the end of the next 2xx write sent after it. */
  firstWriteAfterReturnMs: number | undefined;
  /** Requests sent while it lasted: answered 2xx, and refused (5xx or no connection). */
  during: { ok: number; refused: number };
  notes: string[];
}

export interface Verdict {
  requests: { sent: number; ok: number; rejected: number; refusedFast: number; hung: number };
  faults: FaultResult[];
  /** Non-2xx answers by request kind, status and error code, most frequent first. */
  refusals: Array<{ what: string; count: number }>;
  counts: Record<FindingKind, number>;
  findings: Finding[];
  passed: boolean;
}

const KINDS: FindingKind[] = [
  'lost-write',
  'half-change',
  'lost-event',
  'duplicate-event',
  'out-of-order',
  'hang',
  'unauthorized',
  'bad-refusal',
  'slow-recovery',
  'readiness',
  'outbox',
];

function duringFault(o: Observations, from: number, to: number) {
  const sent = o.operations.filter((op) => op.startedAt >= from && op.startedAt <= to);
  return {
    ok: sent.filter((op) => op.outcome === 'ok').length,
    refused: sent.filter((op) => op.outcome === 'refused').length,
  };
}

function refusalsOf(o: Observations) {
  const counts = new Map<string, number>();
  for (const op of o.operations) {
    if (op.outcome === 'ok') continue;
    const what = `${op.kind} ${op.outcome === 'hung' ? 'no answer' : op.status || 'no connection'} ${op.code ?? ''}`;
    counts.set(what.trim(), (counts.get(what.trim()) ?? 0) + 1);
  }
  return [...counts].map(([what, count]) => ({ what, count })).sort((a, b) => b.count - a.count);
}

export function check(o: Observations): Verdict {
  const findings = [
    ...checkWrites(o.rooms, o.operations),
    ...checkEvents(o.rooms, o.clients, o.deliveries),
    ...checkService(o),
  ];
  const counts = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<FindingKind, number>;
  for (const f of findings) counts[f.kind]++;
  const by = (outcome: string) => o.operations.filter((op) => op.outcome === outcome).length;
  return {
    requests: {
      sent: o.operations.length,
      ok: by('ok'),
      rejected: by('rejected'),
      refusedFast: by('refused'),
      hung: by('hung'),
    },
    faults: o.faults.map((f) => ({
      name: f.name,
      firstWriteAfterStartMs: timeToWrite(o.operations, f.injectedAt),
      firstWriteAfterReturnMs: timeToWrite(o.operations, f.restoredAt),
      during: duringFault(o, f.injectedAt, f.restoredAt),
      notes: f.notes,
    })),
    refusals: refusalsOf(o),
    counts,
    findings,
    passed: findings.length === 0,
  };
}
