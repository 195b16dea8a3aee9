/**
 * Service: no request hangs, a refusal is a fast 503 with the error envelope, a valid token is never
 * answered 401, /readyz names what is down, the system writes again soon after each fault, and every
 * outbox drains.
 */
import type { Operation } from './ledger.ts';
import type { FaultWindow, Finding, Observations } from './observations.ts';

/** Slack over the gateway's timeout for the answer to travel back on a busy machine. */
const REFUSAL_SLACK_MS = 2_000;

function checkAnswers(operations: Operation[], upstreamTimeoutMs: number): Finding[] {
  const findings: Finding[] = [];
  for (const op of operations) {
    const what = `${op.kind} in room ${op.room} at ${new Date(op.startedAt).toISOString()}`;
    if (op.outcome === 'hung') findings.push({ kind: 'hang', detail: `${what}: no answer` });
    if (op.status === 401 && op.validToken)
      findings.push({ kind: 'unauthorized', detail: `${what}: 401 for a valid token` });
    if (op.status >= 500 && !op.enveloped)
      findings.push({ kind: 'bad-refusal', detail: `${what}: ${op.status} without the error envelope` });
    if (op.status >= 500 && op.endedAt - op.startedAt > upstreamTimeoutMs + REFUSAL_SLACK_MS)
      findings.push({
        kind: 'bad-refusal',
        detail: `${what}: ${op.status} after ${op.endedAt - op.startedAt} ms`,
      });
  }
  return findings;
}

/** The writes the traffic keeps sending, in groups that reach different units (sessions; stories and sessions). */
const WRITE_GROUPS: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['vote']),
  new Set(['add-story', 'activate', 'reveal']),
];

/** Milliseconds from `since` to the end of the first 2xx write of the group sent at or after it. */
function firstWrite(operations: Operation[], since: number, group: ReadonlySet<string>): number | undefined {
  let best: number | undefined;
  for (const op of operations) {
    if (op.outcome !== 'ok' || !group.has(op.kind) || op.startedAt < since) continue;
    if (best === undefined || op.endedAt < best) best = op.endedAt;
  }
  return best === undefined ? undefined : best - since;
}

/**
 * Milliseconds from `since` until the system wrote again: a vote and a story change each answered 2xx
 * (sent at or after it); undefined when one of them never was.
 */
export function timeToWrite(operations: Operation[], since: number): number | undefined {
  const times = WRITE_GROUPS.map((group) => firstWrite(operations, since, group));
  return times.some((t) => t === undefined) ? undefined : Math.max(...(times as number[]));
}

function checkRecovery(operations: Operation[], faults: FaultWindow[], limitMs: number): Finding[] {
  const findings: Finding[] = [];
  for (const fault of faults) {
    const took = timeToWrite(operations, fault.restoredAt);
    if (took === undefined)
      findings.push({ kind: 'slow-recovery', detail: `${fault.name}: no write succeeded after it` });
    else if (took > limitMs)
      findings.push({
        kind: 'slow-recovery',
        detail: `${fault.name}: first write ${took} ms after the return`,
      });
  }
  return findings;
}

/** While a dependency every unit needs is gone, /readyz says not ready and names what is down. */
function checkReadiness(faults: FaultWindow[]): Finding[] {
  return faults
    .filter((f) => f.outage && !f.notReady.some((answer) => answer.includes('down:')))
    .map((f) => ({ kind: 'readiness' as const, detail: `${f.name}: /readyz never named what was down` }));
}

function checkOutboxes(outboxes: Record<string, number | null>): Finding[] {
  return Object.entries(outboxes).flatMap(([unit, rows]): Finding[] => {
    if (rows === null) return [{ kind: 'outbox', detail: `${unit}: outbox could not be read` }];
    return rows > 0 ? [{ kind: 'outbox', detail: `${unit}: ${rows} events left in the outbox` }] : [];
  });
}

export function checkService(o: Observations): Finding[] {
  return [
    ...checkAnswers(o.operations, o.upstreamTimeoutMs),
    ...checkRecovery(o.operations, o.faults, o.recoveryLimitMs),
    ...checkReadiness(o.faults),
    ...checkOutboxes(o.outboxes),
  ];
}
