import type { EntityManager } from '@pp/db';
import { row } from './sql.ts';

export type AtZero = 'reveal' | 'close';

/**
 * Starts (or starts again) the countdown of the session's open round: the round's row, locked by the
 * update (votes in flight on it commit first). The round's story id, or undefined when no round is
 * open (none current, or the current one sealed).
 */
export async function startCountdown(
  tx: EntityManager,
  sessionId: string,
  countdown: { endsAt: Date; atZero: AtZero; seconds: number },
): Promise<string | undefined> {
  const started = await row<{ id: string }>(
    tx,
    `update rounds set countdown_ends_at = ?, countdown_at_zero = ?, countdown_seconds = ?
      where session_id = ? and status = 'voting' and not sealed returning id`,
    [countdown.endsAt, countdown.atZero, countdown.seconds, sessionId],
  );
  return started?.id;
}

/** Stops the open round's countdown: the round's story id, or undefined when it had none. */
export async function stopCountdown(tx: EntityManager, sessionId: string): Promise<string | undefined> {
  const stopped = await row<{ id: string }>(
    tx,
    `update rounds set countdown_ends_at = null
      where session_id = ? and status = 'voting' and countdown_ends_at is not null returning id`,
    [sessionId],
  );
  return stopped?.id;
}
