import { Turns } from '@pp/async';
import { BoundedMap } from '@pp/collections';
import { ServiceUnavailableError } from '@pp/http';
import type { QueueTarget } from '../../db/queue.repository.ts';

/**
 * How long a change waits for its turn before it gives up with 503, having done nothing (a retry is
 * safe). Turns take milliseconds; only changes queued behind a sessions unit that answers very
 * slowly wait this long, and they answer well before the gateway's upstream timeout (15 s), which
 * would leave the client unsure whether the change was made.
 */
export const TURN_WAIT_MS = 5_000;

const keyOf = (target: QueueTarget) =>
  'storyId' in target ? `story:${target.storyId}` : 'code' in target ? `code:${target.code}` : undefined;

/**
 * Changes of one session's stories take turns in this replica (keyed by the session's id), in the
 * order they came; one that waited TURN_WAIT_MS gives up with 503. A change commits only if no other
 * change of the session was planned since it read the stories, so changes of one session that overlap
 * would undo each other's plans: ten stories added at once would mostly end in 409 concurrent_change.
 * Taking turns holds nothing but the session's later changes of this replica (no connection, no row:
 * other sessions go on, and so does every read); changes through other replicas still meet the
 * commit's check and plan again.
 *
 * One instance per running service (it is state of the replica, not of the module: two replicas in
 * one process keep lines of their own, as two processes would).
 */
export class SessionTurns extends Turns {
  constructor() {
    super({
      ms: TURN_WAIT_MS,
      late: () =>
        new ServiceUnavailableError('Other changes of this session are still under way, try again shortly'),
    });
  }

  /**
   * The session of a change's target (a story, a code or an id), as learnt from earlier changes, so
   * that a change can wait for its turn before it reads. A story never moves and a code never changes
   * session; a wrong guess would only make a change wait in another session's line.
   */
  private readonly sessionOfTarget = new BoundedMap<string, string>(10_000);

  knownSessionOf(target: QueueTarget): string | undefined {
    if ('sessionId' in target) return target.sessionId;
    return this.sessionOfTarget.get(keyOf(target)!);
  }

  rememberSessionOf(target: QueueTarget, sessionId: string): void {
    const key = keyOf(target);
    if (!key || this.sessionOfTarget.has(key)) return;
    this.sessionOfTarget.set(key, sessionId);
  }
}
