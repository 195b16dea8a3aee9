import { sessionSnapshot, type SessionSnapshot } from '@pp/contracts';
import { AppError } from '@pp/http';
import { createServiceClient } from '@pp/http-client';
import type { Logger } from '@pp/logger';

export interface SessionsClient {
  /** The session by code or id as the sessions unit has it now, or null when it does not know it. */
  lookup(codeOrId: string): Promise<SessionSnapshot | null>;
}

/** The sessions unit's internal lookup, called as the ai unit (signed service identity). */
export function createSessionsClient(options: {
  baseURL: string;
  signingKey: string;
  logger: Logger;
  timeoutMs: number;
}): SessionsClient {
  const client = createServiceClient({ target: 'sessions', caller: 'ai', ...options });
  return {
    async lookup(codeOrId) {
      const response = await client.call<{ session?: unknown; error?: { code?: string } }>({
        url: `/internal/sessions/${encodeURIComponent(codeOrId)}`,
      });
      if (response.status === 404 || response.status === 422) return null;
      if (response.status !== 200)
        throw new AppError(502, 'upstream_error', `sessions answered ${response.status}`);
      return sessionSnapshot.parse(response.data.session);
    },
  };
}
