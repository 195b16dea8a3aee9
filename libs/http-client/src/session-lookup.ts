import { sessionSnapshot, type SessionSnapshot } from '@pp/contracts';
import { AppError } from '@pp/http';
import type { Logger } from '@pp/logger';
import { createServiceClient, type ServiceClient } from './service-client.ts';

/**
 * The session by code or id as the sessions unit has it now (its internal lookup), for any unit that
 * needs it: null when no session has that code or id (404, or 422 for one that cannot name a
 * session); any other refusal is passed on with the sessions unit's status, code and message (a
 * 503 stays a 503); a unit that cannot be reached is the client's 503.
 */
export async function lookupSession(
  sessions: ServiceClient,
  codeOrId: string,
): Promise<SessionSnapshot | null> {
  const response = await sessions.call<{ session?: unknown; message?: string; error?: { code?: string } }>({
    url: `/internal/sessions/${encodeURIComponent(codeOrId)}`,
  });
  if (response.status === 404 || response.status === 422) return null;
  if (response.status !== 200)
    throw new AppError(
      response.status,
      response.data?.error?.code ?? 'upstream_error',
      response.data?.message ?? `sessions answered ${response.status}`,
    );
  return sessionSnapshot.parse(response.data.session);
}

export interface SessionsClient {
  /** The session by code or id as the sessions unit has it now, or null when it knows none. */
  lookup(codeOrId: string): Promise<SessionSnapshot | null>;
}

/** The sessions unit's internal lookup alone, called as `caller` (a signed service identity). */
export function createSessionsClient(options: {
  caller: string;
  baseURL: string;
  signingKey: string;
  logger: Logger;
  timeoutMs?: number;
}): SessionsClient {
  const client = createServiceClient({ target: 'sessions', ...options });
  return { lookup: (codeOrId) => lookupSession(client, codeOrId) };
}
