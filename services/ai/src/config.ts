import { defaultServiceUrl, envBoolean, loadConfig, port, serviceEnv, z } from '@pp/config';

export const configSchema = z
  .object({
    ...serviceEnv,
    PORT: port(8084),
    /** The units the assistant reads a session from: its owner and deck, its stories and votes. */
    SESSIONS_URL: z.url().default(defaultServiceUrl('sessions')),
    STORIES_URL: z.url().default(defaultServiceUrl('stories')),
    /** How long one call to another unit may take. */
    UNITS_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_000),
    /** An OpenAI-compatible chat-completions endpoint (e.g. `https://api.openai.com/v1`); unset: the built-in engine only. */
    AI_PROVIDER_URL: z.url().optional(),
    AI_MODEL: z.string().trim().min(1).max(200).optional(),
    AI_API_KEY: z.string().min(1).optional(),
    /**
     * The whole model call, its one retry included: past it, the built-in engine answers. Under the
     * time the gateway (UPSTREAM_TIMEOUT_MS, 15 s) and the MCP unit wait for this unit, or the client
     * would get their 504 instead of the built-in answer.
     */
    AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
    /** Model calls in flight at once in this process; more wait for nobody: they get the built-in answer. */
    AI_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(8),
    /** Model calls one user may cause per hour (every replica counts against the same budget). */
    AI_USER_BUDGET_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(60),
    /** Allow a model endpoint on plain http, loopback or a private network (a model run locally). */
    OUTBOUND_ALLOW_PRIVATE: envBoolean(false),
  })
  .refine((c) => !c.AI_PROVIDER_URL || c.AI_MODEL, {
    path: ['AI_MODEL'],
    message: 'is required when AI_PROVIDER_URL is set',
  });
export type Config = z.infer<typeof configSchema>;
export const readConfig = (env: Record<string, string | undefined> = process.env): Config =>
  loadConfig(configSchema, env);
