import { storiesForUnits, type StoryForUnits } from '@pp/contracts';
import { createServiceClient } from '@pp/http-client';
import type { Logger } from '@pp/logger';

export interface StoriesClient {
  /** The session's stories in queue order (only `ids` when given), with the vote values of revealed ones. */
  list(sessionId: string, ids?: readonly string[]): Promise<StoryForUnits[]>;
}

/** The stories unit's internal read, called as the ai unit (signed service identity). */
export function createStoriesClient(options: {
  baseURL: string;
  signingKey: string;
  logger: Logger;
  timeoutMs: number;
}): StoriesClient {
  const client = createServiceClient({ target: 'stories', caller: 'ai', ...options });
  return {
    async list(sessionId, ids) {
      const body = await client.callOk({
        url: `/internal/sessions/${encodeURIComponent(sessionId)}/stories`,
        params: ids && ids.length > 0 ? { ids: ids.join(',') } : undefined,
      });
      return storiesForUnits.parse(body).stories;
    },
  };
}
