import type { SessionSnapshot } from '@pp/contracts';
import { createServiceClient, lookupSession } from '@pp/http-client';
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
  return { lookup: (codeOrId) => lookupSession(client, codeOrId) };
}
