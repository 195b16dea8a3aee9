import { within } from '@pp/async';
import { BoundedMap } from '@pp/collections';
import { ServiceUnavailableError } from '@pp/http';
import type { QueueTarget } from '../../db/queue.repository.ts';

/**
 * Changes of one session's stories take turns in this process, in the order they came. A change
 * commits only if no other change of the session was planned since it read the stories, so changes
 * of one session that overlap would undo each other's plans: ten stories added at once would mostly
 * end in 409 concurrent_change. Taking turns holds nothing but the session's later changes of this
 * process (no connection, no row: other sessions go on, and so does every read); changes through
 * other replicas still meet the commit's check and plan again.
 */
const turns = new Map<string, Promise<void>>();

/**
 * How long a change waits for its turn before it gives up with 503, having done nothing (a retry is
 * safe). Turns take milliseconds; only changes queued behind a sessions unit that answers very
 * slowly wait this long, and they answer well before the gateway's upstream timeout (15 s), which
 * would leave the client unsure whether the change was made.
 */
export const TURN_WAIT_MS = 5_000;

/**
 * Runs `work` once the changes of the session queued before it in this process are done. `waited`
 * says whether there were any (then what was read before may be stale). After `maxWaitMs` in the
 * line it rejects with 503 instead, and the changes after it keep their order.
 */
export async function inSessionTurn<T>(
  sessionId: string,
  work: (waited: boolean) => Promise<T>,
  maxWaitMs = TURN_WAIT_MS,
): Promise<T> {
  const before = turns.get(sessionId);
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const last = before ? before.then(() => mine) : mine;
  turns.set(sessionId, last);
  // The line goes once everything in it is done (a change that gave up leaves those before it there).
  void last.then(() => {
    if (turns.get(sessionId) === last) turns.delete(sessionId);
  });
  try {
    if (before)
      await within(
        maxWaitMs,
        before,
        () =>
          new ServiceUnavailableError('Other changes of this session are still under way, try again shortly'),
      );
    return await work(before !== undefined);
  } finally {
    done();
  }
}

/**
 * The session of a change's target (a story, a code or an id), as learnt from earlier changes, so
 * that a change can wait for its turn before it reads. A story never moves and a code never changes
 * session; a wrong guess would only make a change wait in another session's line.
 */
const sessionOfTarget = new BoundedMap<string, string>(10_000);

const keyOf = (target: QueueTarget) =>
  'storyId' in target ? `story:${target.storyId}` : 'code' in target ? `code:${target.code}` : undefined;

export function knownSessionOf(target: QueueTarget): string | undefined {
  if ('sessionId' in target) return target.sessionId;
  return sessionOfTarget.get(keyOf(target)!);
}

export function rememberSessionOf(target: QueueTarget, sessionId: string): void {
  const key = keyOf(target);
  if (!key || sessionOfTarget.has(key)) return;
  sessionOfTarget.set(key, sessionId);
}

/** How many sessions have changes under way or waiting in this process (for tests). */
export const sessionsInLine = () => turns.size;
