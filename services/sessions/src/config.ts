import { defaultServiceUrl, loadConfig, port, serviceEnv, z } from '@pp/config';

export const configSchema = z.object({
  ...serviceEnv,
  PORT: port(8082),
  /** The stories service: a session made from a template gets its stories there. */
  STORIES_URL: z.url().default(defaultServiceUrl('stories')),
  /** How long one call to the stories service may take (it calls back here for the round). */
  STORIES_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  /**
   * The most participants a room holds, observers and the moderator included: a join past it is
   * refused (409 room_full). The live room is built and measured for rooms of 1,000.
   */
  ROOM_MAX_PARTICIPANTS: z.coerce.number().int().min(1).max(100_000).default(1_000),
  /**
   * How many bytes may wait unsent for one live room client before its stream is dropped (a client
   * that stopped reading): the memory a replica spends on a stream stays under it.
   */
  ROOM_STREAM_MAX_UNSENT_BYTES: z.coerce
    .number()
    .int()
    .min(16 * 1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  /**
   * How long after a participant's last room stream closed it is announced away: a reconnect within it
   * does not flicker. Replicas look for who left every PRESENCE_SWEEP_MS.
   */
  PRESENCE_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  PRESENCE_SWEEP_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** How long a session made from a template may wait for its stories before it is discarded. */
  PROVISIONAL_TTL_MS: z.coerce.number().int().min(1_000).default(120_000),
});

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): Config =>
  loadConfig(configSchema, env);
