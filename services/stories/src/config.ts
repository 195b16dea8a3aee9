import { defaultServiceUrl, loadConfig, port, serviceEnv, z } from '@pp/config';

export const configSchema = z.object({
  ...serviceEnv,
  PORT: port(8083),
  /** The sessions service: read-model fallback, and the owner of the voting round. */
  SESSIONS_URL: z.url().default(defaultServiceUrl('sessions')),
  SESSIONS_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_000),
  /** How often the vote-by deadline task looks for rounds to reveal. */
  VOTE_BY_POLL_MS: z.coerce.number().int().min(50).default(1_000),
  /** How often the round sync task looks for rounds left unsettled, and how long it lets a change settle its own. */
  ROUND_SYNC_INTERVAL_MS: z.coerce.number().int().min(50).default(1_000),
  ROUND_SYNC_GRACE_MS: z.coerce.number().int().min(100).default(3_000),
});

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): Config =>
  loadConfig(configSchema, env);
