import { roundAnswer, type RoundAnswer, type RoundCommand, type SessionSnapshot } from '@pp/contracts';
import { createServiceClient, lookupSession } from '@pp/http-client';
import type { Logger } from '@pp/logger';
import { z } from 'zod';

export interface SessionsClient {
  /** The session by code or id, or null when sessions does not know it. */
  lookup(codeOrId: string): Promise<SessionSnapshot | null>;
  /**
   * Changes the session's voting round (idempotent by the command's version, so it is retried).
   * Throws the sessions unit's refusal (404, 409 session_archived, 409 reveal_not_due) as an AppError.
   */
  applyRound(sessionId: string, command: RoundCommand): Promise<RoundAnswer>;
  /** The room's moderator holding this participant token (its id and name), or null when it is not the moderator's. */
  moderator(sessionId: string, participantToken: string): Promise<{ id: number; name: string } | null>;
  /** The round's counts as committed now. */
  stats(
    sessionId: string,
    storyId: string,
  ): Promise<{ votes_cast: number; total_participants: number; all_voted: boolean }>;
}

const moderatorAnswer = z.object({
  moderator: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});

const roundStats = z.object({
  stats: z.object({
    votes_cast: z.number().int(),
    total_participants: z.number().int(),
    all_voted: z.boolean(),
  }),
});

/** The internal endpoints of the sessions service, called as the stories service (signed identity). */
export function createSessionsClient(options: {
  baseURL: string;
  signingKey: string;
  logger: Logger;
  timeoutMs?: number;
}): SessionsClient {
  const calls = {
    target: 'sessions',
    caller: 'stories',
    baseURL: options.baseURL,
    signingKey: options.signingKey,
    logger: options.logger,
    timeoutMs: options.timeoutMs,
  };
  const client = createServiceClient(calls);
  const session = (sessionId: string) => `/internal/sessions/${encodeURIComponent(sessionId)}`;
  return {
    lookup: (codeOrId) => lookupSession(client, codeOrId),
    async applyRound(sessionId, command) {
      const body = await client.callOk({
        url: `${session(sessionId)}/round`,
        method: 'PUT',
        data: command,
        idempotent: true,
      });
      return roundAnswer.parse(body);
    },
    async moderator(sessionId, participantToken) {
      const body = await client.callOk({
        url: `${session(sessionId)}/moderator`,
        method: 'POST',
        data: { participant_token: participantToken },
        idempotent: true,
      });
      return moderatorAnswer.parse(body).moderator;
    },
    async stats(sessionId, storyId) {
      const url = `${session(sessionId)}/stories/${encodeURIComponent(storyId)}/stats`;
      return roundStats.parse(await client.callOk({ url })).stats;
    },
  };
}
