import type { SessionSnapshot } from '@pp/contracts';
import { createServiceClient, lookupSession } from '@pp/http-client';
import type { Logger } from '@pp/logger';

export interface SessionsClient {
  /** The session by code or id as the sessions unit has it now, or null when it knows none. */
  lookup(codeOrId: string): Promise<SessionSnapshot | null>;
}

/** The sessions unit's internal lookup, called as the webhooks unit (signed service identity). */
export function createSessionsClient(options: {
  baseURL: string;
  signingKey: string;
  logger: Logger;
  timeoutMs?: number;
}): SessionsClient {
  const client = createServiceClient({ target: 'sessions', caller: 'webhooks', ...options });
  return { lookup: (codeOrId) => lookupSession(client, codeOrId) };
}
