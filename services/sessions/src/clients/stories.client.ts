import {
  eventEnvelopeSchema,
  roomStorySchema,
  type ArchivingNotice,
  type EventEnvelope,
  type RoomStory,
} from '@pp/contracts';
import { createServiceClient } from '@pp/http-client';
import type { Logger } from '@pp/logger';
import { z } from 'zod';

/** A story of a batch: the id is the caller's. */
export interface BatchStory {
  id: string;
  title: string;
  description?: string;
  acceptance_criteria?: string;
}

const addedStories = z.object({
  stories: z.array(
    z.object({
      id: z.uuid(),
      title: z.string(),
      status: z.enum(['pending', 'voting', 'revealed']),
      position: z.number().int(),
    }),
  ),
});
export type AddedStory = z.infer<typeof addedStories>['stories'][number];

export interface StoriesClient {
  /**
   * Adds the stories, in order, to a session of this unit: one change there, so all of them or none,
   * and the round is told here before it answers. The ids are ours, so the call is retried, and a
   * retry finds them there. Throws the stories unit's refusal as an AppError, a 503 when it cannot be
   * reached.
   */
  addStories(sessionId: string, stories: BatchStory[]): Promise<AddedStory[]>;
  /**
   * A round of the session may just have become complete (the story named, or else the current one):
   * the stories unit reveals it now if auto-reveal is on and everyone voted. Whether it did.
   */
  revealIfComplete(sessionId: string, storyId?: string): Promise<boolean>;
  /** The session's latest story events as the stories unit wrote them with each change, newest first. */
  storyHistory(sessionId: string, limit: number): Promise<EventEnvelope[]>;
  /** The session's stories in queue order, as the room shows them (GET /sessions/{code}/stories). */
  roomStories(sessionId: string): Promise<RoomStory[]>;
  /**
   * The id of the session's story open for voting as the stories unit has it committed, or null. Asked
   * once for all the callers that ask about the session at the same time (the first votes on a story
   * just made current come together).
   */
  currentStory(sessionId: string): Promise<string | null>;
  /**
   * This unit is about to archive the session: the stories unit asks it about every change of the
   * session's stories from now on (changes that leave the round as it was otherwise commit there
   * alone). Retried on a lost answer (the same notice twice is the same); a 503 when it cannot be reached.
   */
  archiving(notice: ArchivingNotice): Promise<void>;
}

const history = z.object({ events: z.array(eventEnvelopeSchema) });

const votingStories = z.object({ stories: z.array(z.object({ id: z.uuid() })).max(1) });

const roomStories = z.object({ stories: z.array(roomStorySchema) });
export type { RoomStory };

/** The internal endpoints of the stories service, called as the sessions service (signed identity). */
export function createStoriesClient(options: {
  baseURL: string;
  signingKey: string;
  logger: Logger;
  timeoutMs?: number;
}): StoriesClient {
  const client = createServiceClient({
    target: 'stories',
    caller: 'sessions',
    baseURL: options.baseURL,
    signingKey: options.signingKey,
    logger: options.logger,
    timeoutMs: options.timeoutMs,
  });
  const asking = new Map<string, Promise<string | null>>();
  const askCurrentStory = async (sessionId: string) => {
    const body = await client.callOk({
      url: `/internal/sessions/${encodeURIComponent(sessionId)}/stories`,
      method: 'GET',
      params: { status: 'voting' },
    });
    return votingStories.parse(body).stories[0]?.id ?? null;
  };
  return {
    async addStories(sessionId, stories) {
      const body = await client.callOk({
        url: `/internal/sessions/${encodeURIComponent(sessionId)}/stories`,
        method: 'POST',
        data: { stories },
        idempotent: true,
      });
      return addedStories.parse(body).stories;
    },
    async revealIfComplete(sessionId, storyId) {
      const body = await client.callOk<{ revealed?: unknown }>({
        url: `/internal/sessions/${encodeURIComponent(sessionId)}/auto-reveal`,
        method: 'POST',
        data: storyId ? { story_id: storyId } : {},
        // A second ask finds the story revealed: harmless to repeat.
        idempotent: true,
      });
      return body.revealed === true;
    },
    async storyHistory(sessionId, limit) {
      const body = await client.callOk({
        url: `/internal/sessions/${encodeURIComponent(sessionId)}/history`,
        method: 'GET',
        params: { limit },
      });
      return history.parse(body).events;
    },
    async roomStories(sessionId) {
      const body = await client.callOk({
        url: `/internal/sessions/${encodeURIComponent(sessionId)}/room-stories`,
        method: 'GET',
      });
      return roomStories.parse(body).stories;
    },
    async archiving(notice) {
      await client.callOk({
        url: `/internal/sessions/${encodeURIComponent(notice.session.id)}/archiving`,
        method: 'PUT',
        data: notice,
        idempotent: true,
      });
    },
    currentStory(sessionId) {
      let answer = asking.get(sessionId);
      if (!answer) {
        answer = askCurrentStory(sessionId).finally(() => asking.delete(sessionId));
        asking.set(sessionId, answer);
      }
      return answer;
    },
  };
}
