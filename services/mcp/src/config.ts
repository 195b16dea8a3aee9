import { defaultServiceUrl, listenHost, loadConfig, logLevel, port, secret, z } from '@pp/config';

/** The MCP unit owns no data: no database, no event bus; it calls the other units as the caller. */
export const configSchema = z.object({
  PORT: port(8087),
  HOST: listenHost,
  LOG_LEVEL: logLevel,
  INTERNAL_SIGNING_KEY: secret,
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  SESSIONS_URL: z.url().default(defaultServiceUrl('sessions')),
  STORIES_URL: z.url().default(defaultServiceUrl('stories')),
  AI_URL: z.url().default(defaultServiceUrl('ai')),
  INTEGRATIONS_URL: z.url().default(defaultServiceUrl('integrations')),
  /**
   * How long a tool may wait for the unit it calls: under the gateway's wait for this unit
   * (UPSTREAM_TIMEOUT_MS, 15 s), so that a unit that stops answering is a tool error, not a 504; over
   * the ai unit's wait for a model (10 s), so that its built-in answer still comes back.
   */
  CALL_TIMEOUT_MS: z.coerce.number().int().min(100).default(12_000),
});

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): Config =>
  loadConfig(configSchema, env);
