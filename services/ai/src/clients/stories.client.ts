import { storiesForUnits, type StoryForUnits, type StoryStatus } from '@pp/contracts';
import { createServiceClient } from '@pp/http-client';
import type { Logger } from '@pp/logger';

export interface StoriesClient {
  /**
   * The session's stories in queue order, with the vote values of revealed ones: only those of `ids`
   * and in one of `status` when given.
   */
  list(
    sessionId: string,
    filter?: { ids?: readonly string[]; status?: readonly StoryStatus[] },
  ): Promise<StoryForUnits[]>;
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
    async list(sessionId, filter = {}) {
      const params: Record<string, string> = {};
      if (filter.ids) params.ids = filter.ids.join(',');
      if (filter.status) params.status = filter.status.join(',');
      const body = await client.callOk({
        url: `/internal/sessions/${encodeURIComponent(sessionId)}/stories`,
        params,
      });
      return storiesForUnits.parse(body).stories;
    },
  };
}
