import type { Request, Response } from 'express';
import { PARTICIPANT_TOKEN_HEADER } from '@pp/http';
import type { OpenPresenceStreams } from '../background/presence.task.ts';
import { streamClosed, streamOpened } from '../use-cases/track-presence.use-case.ts';
import type { RouteDeps } from './deps.ts';

/**
 * A live room stream opened with a participant's token (X-Participant-Token) marks the participant
 * connected while it is open; closing it starts the grace after which it is announced away. The
 * stream is already answered here: a failure is logged and the stream goes on without presence.
 */
export async function followPresence(
  deps: RouteDeps,
  req: Request,
  res: Response,
  sessionId: string,
  open: OpenPresenceStreams,
) {
  const token = req.headers[PARTICIPANT_TOKEN_HEADER];
  if (req.method !== 'GET' || typeof token !== 'string' || res.writableEnded) return;
  const ctx = deps.context();
  try {
    const streamId = await streamOpened(ctx, sessionId, token);
    if (!streamId) return;
    open.add(streamId);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      open.delete(streamId);
      const recorded: Promise<unknown> = streamClosed(deps.context(), streamId)
        .catch((err: unknown) =>
          ctx.logger.warn({ err, stream_id: streamId }, 'presence: a closed stream not recorded'),
        )
        .finally(() => open.closing.delete(recorded));
      open.closing.add(recorded);
    };
    res.once('close', close);
    // The client may have gone while the stream was recorded.
    if (res.destroyed || res.writableEnded) close();
  } catch (err) {
    ctx.logger.warn({ err, session_id: sessionId }, 'presence: a stream not recorded');
  }
}
