import type { Identity } from '@pp/http';
import { createServiceClient, type ServiceClient } from '@pp/http-client';
import type { Logger } from '@pp/logger';
import type { Config } from '../config.ts';
import type { Unit } from '../domain/tools.ts';

/** A unit's answer: the status and the envelope it sent. */
export interface UnitAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface UnitsClient {
  /** Calls a unit's public endpoint as the caller: the unit checks what the caller may do. */
  asCaller(
    caller: Identity,
    unit: Unit,
    call: { method: 'GET' | 'POST'; path: string; query?: Record<string, unknown>; body?: unknown },
  ): Promise<UnitAnswer>;
  /** The code of a session known by its id (the sessions unit's internal lookup), or undefined. */
  sessionCode(id: string): Promise<string | undefined>;
}

/**
 * The units the tools call, each through one client with a timeout and a circuit breaker. No retry:
 * one more wait of CALL_TIMEOUT_MS would outlast the gateway's, and the assistant, told the tool
 * failed, can call it again.
 */
export function createUnitsClient(config: Config, logger: Logger): UnitsClient {
  const urls: Record<Unit, string> = {
    sessions: config.SESSIONS_URL,
    stories: config.STORIES_URL,
    ai: config.AI_URL,
    integrations: config.INTEGRATIONS_URL,
  };
  const clients = Object.fromEntries(
    Object.entries(urls).map(([unit, baseURL]) => [
      unit,
      createServiceClient({
        target: unit,
        baseURL,
        caller: 'mcp',
        signingKey: config.INTERNAL_SIGNING_KEY,
        logger,
        timeoutMs: config.CALL_TIMEOUT_MS,
        retries: 0,
      }),
    ]),
  ) as Record<Unit, ServiceClient>;

  return {
    async asCaller(caller, unit, call) {
      const response = await clients[unit].call<Record<string, unknown>>({
        method: call.method,
        url: call.path,
        params: call.query,
        data: call.body,
        actAs: caller,
      });
      return { status: response.status, body: response.data ?? {} };
    },
    async sessionCode(id) {
      const response = await clients.sessions.call<{ session?: { code?: string } }>({
        url: `/internal/sessions/${encodeURIComponent(id)}`,
      });
      return response.status === 200 ? response.data.session?.code : undefined;
    },
  };
}
