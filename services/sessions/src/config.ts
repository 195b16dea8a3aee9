import { loadConfig, port, serviceEnv, z } from '@pp/config';

export const configSchema = z.object({
  ...serviceEnv,
  PORT: port(8082),
  /** Subject prefix of the event bus (`pp` in production; tests use their own). */
  EVENTS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/i, 'letters, digits, _ or -')
    .default('pp'),
});

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): Config =>
  loadConfig(configSchema, env);
