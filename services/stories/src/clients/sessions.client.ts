import { sessionSnapshot, type SessionSnapshot } from '@pp/contracts';
import { AppError } from '@pp/http';
import { createServiceClient } from '@pp/http-client';
import type { Logger } from '@pp/logger';
import { z } from 'zod';
import type { RoomVote } from '../domain/vote-names.ts';

/** What the sessions service answers when it seals a round: every vote, named (the room's view). */
const sealedRound = z.object({
  votes: z.array(
    z.object({
      participant: z.object({ id: z.number().int(), name: z.string() }).loose(),
      value: z.string(),
    }),
  ),
});

export interface SessionsClient {
  /** The session by code or id, or null when sessions does not know it. */
  lookup(codeOrId: string): Promise<SessionSnapshot | null>;
  /** Seals the story's round (no vote after it) and returns its votes; sealing twice returns the same votes. */
  seal(sessionId: string, storyId: string): Promise<RoomVote[]>;
  /** Deletes the story's votes and opens its round again. */
  reset(sessionId: string, storyId: string): Promise<void>;
  /** The round's counts as committed now. */
  stats(
    sessionId: string,
    storyId: string,
  ): Promise<{ votes_cast: number; total_participants: number; all_voted: boolean }>;
}

const roundStats = z.object({
  stats: z.object({
    votes_cast: z.number().int(),
    total_participants: z.number().int(),
    all_voted: z.boolean(),
  }),
});

function upstreamError(status: number, data: unknown): AppError {
  const body = data as { message?: string; error?: { code?: string } } | undefined;
  return new AppError(
    status,
    body?.error?.code ?? 'upstream_error',
    body?.message ?? `sessions answered ${status}`,
  );
}

/** The internal endpoints of the sessions service, called as the stories service (signed identity). */
export function createSessionsClient(options: {
  baseURL: string;
  signingKey: string;
  logger: Logger;
  timeoutMs?: number;
}): SessionsClient {
  const client = createServiceClient({
    target: 'sessions',
    caller: 'stories',
    baseURL: options.baseURL,
    signingKey: options.signingKey,
    logger: options.logger,
    timeoutMs: options.timeoutMs,
  });
  const round = (sessionId: string, storyId: string, action: 'seal' | 'reset' | 'stats') =>
    `/internal/sessions/${encodeURIComponent(sessionId)}/stories/${encodeURIComponent(storyId)}/${action}`;

  return {
    async lookup(codeOrId) {
      const response = await client.call<{ session?: unknown }>({
        url: `/internal/sessions/${encodeURIComponent(codeOrId)}`,
      });
      if (response.status === 404) return null;
      if (response.status !== 200) throw upstreamError(response.status, response.data);
      return sessionSnapshot.parse(response.data.session);
    },
    async seal(sessionId, storyId) {
      // Sealing is idempotent, so a lost answer may be retried.
      const body = await client.callOk({
        url: round(sessionId, storyId, 'seal'),
        method: 'POST',
        idempotent: true,
      });
      return sealedRound.parse(body).votes.map((v) => ({
        participant: { id: v.participant.id, name: v.participant.name },
        value: v.value,
      }));
    },
    async reset(sessionId, storyId) {
      await client.callOk({ url: round(sessionId, storyId, 'reset'), method: 'POST', idempotent: true });
    },
    async stats(sessionId, storyId) {
      return roundStats.parse(await client.callOk({ url: round(sessionId, storyId, 'stats') })).stats;
    },
  };
}
