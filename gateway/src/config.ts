import { fileURLToPath } from 'node:url';
import {
  defaultServiceUrl,
  envBoolean,
  eventsPrefix,
  listenHost,
  loadConfig,
  logLevel,
  natsCredentials,
  natsUrl,
  port,
  secret,
  services,
  serviceUrlVar,
  z,
  type ServiceName,
} from '@pp/config';

/** `true`/`false`, or how many proxy hops to trust in X-Forwarded-For. */
const trustProxy = z
  .string()
  .default('false')
  .refine((v) => /^(true|false|\d{1,2})$/.test(v), 'must be true, false or a number of proxy hops')
  .transform((v) => (v === 'true' ? true : v === 'false' ? false : Number(v)));

const UNITS = { k: 1024, m: 1024 * 1024 } as Record<string, number>;
/** `512kb`, `1mb` or a byte count. */
const byteSize = z
  .string()
  .default('1mb')
  .refine((v) => /^\d+\s*(b|kb|mb)?$/i.test(v.trim()), 'must be a size such as 512kb or 1mb')
  .transform((v) => {
    const [, n, unit] = /^(\d+)\s*(b|kb|mb)?$/i.exec(v.trim())!;
    return Number(n) * (unit ? (UNITS[unit[0]!.toLowerCase()] ?? 1) : 1);
  });

const serviceUrls = Object.fromEntries(
  services.map((s) => [serviceUrlVar(s.name), z.url().default(defaultServiceUrl(s.name))]),
) as Record<string, z.ZodDefault<z.ZodURL>>;

export const configSchema = z
  .object({
    PORT: port(8080),
    /** The gateway's /metrics, for the operator's scraper only (0: any free port, logged at start). */
    METRICS_PORT: port(0),
    /** Where the gateway listens: every interface by default; `npm start` sets 127.0.0.1 unless HOST is set. */
    HOST: listenHost,
    LOG_LEVEL: logLevel,
    NATS_URL: natsUrl,
    ...natsCredentials,
    INTERNAL_SIGNING_KEY: secret,
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    /** A room's allowance from one address for opening and joining it (10 x RATE_LIMIT_PER_MINUTE unset). */
    RATE_LIMIT_ROOM_ENTRY_PER_MINUTE: z.coerce.number().int().min(1).optional(),
    TRUST_PROXY: trustProxy,
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
    /** Live room streams open at once from one client address, per gateway replica. */
    LIVE_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
    RATE_LIMIT_REDIS_PREFIX: z.string().default('pp:rl:'),
    /** Comma-separated origins allowed by CORS, or `*` (never together with credentials). */
    CORS_ORIGINS: z.string().default('*'),
    CORS_CREDENTIALS: envBoolean(false),
    BODY_LIMIT: byteSize,
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
    INTROSPECTION_TIMEOUT_MS: z.coerce.number().int().min(50).default(2_000),
    TOKEN_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
    TOKEN_NEGATIVE_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
    READINESS_TIMEOUT_MS: z.coerce.number().int().min(50).default(1_000),
    EVENTS_PREFIX: eventsPrefix,
    /** The built web room (index.html and assets/); without one the gateway serves the API only. */
    WEB_DIR: z
      .string()
      .min(1)
      .default(fileURLToPath(new URL('../../web/dist', import.meta.url))),
    ...serviceUrls,
  })
  .refine((c) => !(c.CORS_CREDENTIALS && c.CORS_ORIGINS.split(',').some((o) => o.trim() === '*')), {
    path: ['CORS_ORIGINS'],
    message: 'cannot be * when CORS_CREDENTIALS is true',
  })
  .transform((c) => ({
    ...c,
    RATE_LIMIT_ROOM_ENTRY_PER_MINUTE: c.RATE_LIMIT_ROOM_ENTRY_PER_MINUTE ?? 10 * c.RATE_LIMIT_PER_MINUTE,
  }));

export type Config = z.infer<typeof configSchema> & Record<`${Uppercase<ServiceName>}_URL`, string>;

export const readConfig = (env: Record<string, string | undefined> = process.env): Config =>
  loadConfig(configSchema, env) as Config;

/** Where each unit listens, from its <UNIT>_URL setting. */
export const upstreamUrls = (config: Config): Record<ServiceName, string> =>
  Object.fromEntries(
    services.map((s) => [s.name, (config as Record<string, unknown>)[serviceUrlVar(s.name)] as string]),
  ) as Record<ServiceName, string>;
