import type { SessionSnapshot } from '@pp/contracts';
import { createServiceClient, lookupSession } from '@pp/http-client';
import type { Logger } from '@pp/logger';
import { z } from 'zod';

const storySummary = z.object({
  id: z.uuid(),
  title: z.string(),
  status: z.enum(['pending', 'voting', 'revealed']),
  position: z.number().int(),
});
const roomStory = storySummary.extend({ final_estimate: z.string().nullable() });
export type AddedStory = z.infer<typeof storySummary>;
export type RoomStory = z.infer<typeof roomStory>;

export interface NewStory {
  id: string;
  title: string;
  description: string;
  acceptance_criteria: string;
}

/** The other units this one asks, as itself (signed service identity). */
export interface UnitsClient {
  /** The session by code or id (its owner), or null when there is none. */
  session(codeOrId: string): Promise<SessionSnapshot | null>;
  /** Adds stories to a session in order, one change of its queue; idempotent by the stories' ids. */
  addStories(sessionId: string, stories: NewStory[]): Promise<AddedStory[]>;
  /** The session's stories as the room sees them (status, final estimate), current after any reveal. */
  stories(code: string): Promise<RoomStory[]>;
}

export function createUnitsClient(options: {
  sessionsUrl: string;
  storiesUrl: string;
  signingKey: string;
  logger: Logger;
  timeoutMs: number;
}): UnitsClient {
  const common = {
    caller: 'integrations',
    signingKey: options.signingKey,
    logger: options.logger,
    timeoutMs: options.timeoutMs,
  };
  const sessions = createServiceClient({ ...common, target: 'sessions', baseURL: options.sessionsUrl });
  const stories = createServiceClient({ ...common, target: 'stories', baseURL: options.storiesUrl });
  return {
    session: (codeOrId) => lookupSession(sessions, codeOrId),
    async addStories(sessionId, batch) {
      const body = await stories.callOk<{ stories: unknown }>({
        url: `/internal/sessions/${encodeURIComponent(sessionId)}/stories`,
        method: 'POST',
        data: { stories: batch },
        idempotent: true,
      });
      return z.array(storySummary).parse(body.stories);
    },
    async stories(code) {
      const body = await stories.callOk<{ stories: unknown }>({
        url: `/sessions/${encodeURIComponent(code)}/stories`,
      });
      return z.array(roomStory).parse(body.stories);
    },
  };
}
