import { defaultServiceUrl, envBoolean, loadConfig, port, secret, serviceEnv, z } from '@pp/config';

export const configSchema = z.object({
  ...serviceEnv,
  PORT: port(8086),
  /** The sessions service: who owns a session the read model has not heard of yet. */
  SESSIONS_URL: z.url().default(defaultServiceUrl('sessions')),
  SESSIONS_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_000),
  /** Key of the secrets' encryption at rest (the unit derives its own key from it). */
  CREDENTIALS_ENCRYPTION_KEY: secret,
  /** Local use only: http and private or loopback targets allowed (never link-local or metadata ones). */
  OUTBOUND_ALLOW_PRIVATE: envBoolean(false),
  /** Multiplies the retry schedule and the 5-day window after which a failing endpoint is disabled (tests: 0.001). */
  WEBHOOKS_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  /** How long one attempt may take (a receiver answering later has failed). */
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** Attempts in flight: in all, and to one endpoint (so a slow endpoint holds few of them). */
  WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(256),
  WEBHOOKS_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /** How often due retries are looked for (new deliveries go at once). */
  WEBHOOKS_POLL_MS: z.coerce.number().int().min(10).default(1_000),
});
export type Config = z.infer<typeof configSchema>;
export const readConfig = (env: Record<string, string | undefined> = process.env): Config =>
  loadConfig(configSchema, env);
