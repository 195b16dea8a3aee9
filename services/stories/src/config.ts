import { defaultServiceUrl, loadConfig, port, serviceEnv, z } from '@pp/config';

export const configSchema = z.object({
  ...serviceEnv,
  PORT: port(8083),
  /** Subject prefix of the event bus (`pp` in production; tests use their own). */
  EVENTS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]+$/i, 'letters, digits, _ and - only')
    .default('pp'),
  /** The sessions service: read-model fallback, sealing and resetting rounds. */
  SESSIONS_URL: z.url().default(defaultServiceUrl('sessions')),
  SESSIONS_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_000),
  /** How often the vote-by deadline task looks for rounds to reveal. */
  VOTE_BY_POLL_MS: z.coerce.number().int().min(50).default(1_000),
});

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): Config =>
  loadConfig(configSchema, env);
