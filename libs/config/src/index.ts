import { isIP } from 'node:net';
import { z } from 'zod';

export class ConfigError extends Error {
  readonly variables: string[];
  constructor(issues: z.core.$ZodIssue[]) {
    const lines = issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    super(`Invalid configuration:\n  ${lines.join('\n  ')}`);
    this.name = 'ConfigError';
    this.variables = issues.map((i) => i.path.join('.'));
  }
}

/** Parses the environment with the process's schema; a bad value throws naming the variable. */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) throw new ConfigError(result.error.issues);
  return result.data;
}

/**
 * The exit status of a process whose settings are wrong (EX_CONFIG of sysexits.h): starting it again with
 * the same environment cannot help, so whatever supervises it (`npm start`) does not.
 */
export const EXIT_BAD_CONFIG = 78;

/**
 * A unit's settings as its main.ts reads them: a bad one ends the process at once, the message naming each
 * bad variable on stderr and the status EXIT_BAD_CONFIG (an uncaught ConfigError would exit with 1, as any crash).
 */
export function configOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(EXIT_BAD_CONFIG);
  }
}

/** Boolean from the environment: only the usual spellings, anything else is an error. */
export const envBoolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const logLevel = z
  .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  .default('info');

export const postgresUrl = z
  .string()
  .url()
  .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// URL');

export const natsUrl = z
  .string()
  .default('nats://127.0.0.1:4222')
  .refine(
    (u) => u.split(',').every((s) => /^(nats|tls|ws|wss):\/\/[^\s]+$/.test(s.trim())),
    'must be nats:// URLs',
  );

/**
 * The address a unit listens on: all interfaces by default (in a container the other units and the
 * ingress reach it through its pod's address); `npm start` sets 127.0.0.1 so that nothing on the
 * network reaches a unit around the gateway. An IP address (or `localhost`), never a host name to
 * resolve: a shell's own HOST variable (tcsh sets one to the machine's name) is refused, not guessed.
 */
export const listenHost = z
  .string()
  .default('0.0.0.0')
  .refine((v) => v === 'localhost' || isIP(v) !== 0, 'must be an IP address such as 127.0.0.1 or 0.0.0.0');

/**
 * Keys that were once shipped as examples (docker-compose.yml defaults): anyone can read them, so a
 * unit given one refuses to start rather than sign or encrypt with a key that is public.
 */
export const KNOWN_EXAMPLE_KEYS: readonly string[] = [
  'local-compose-only-internal-signing-key-0001',
  'local-compose-only-token-signing-key-000001',
  'local-compose-only-credentials-key-0000001',
];

/** Secret keys: at least 32 characters so HMAC keys have enough entropy, and none of the public examples. */
export const secret = z
  .string()
  .min(32, 'must be at least 32 characters')
  .refine(
    (v) => !KNOWN_EXAMPLE_KEYS.includes(v) && !v.startsWith('local-compose-only-'),
    'is a published example key: set a random one (e.g. openssl rand -base64 32)',
  );

/**
 * The unit's own user on the broker (NATS_USER and NATS_PASSWORD, set together). Unset, the unit
 * connects without credentials (a NATS that takes anyone, such as a development machine's).
 */
export const natsCredentials = {
  NATS_USER: z.string().min(1).optional(),
  NATS_PASSWORD: z.string().min(1).optional(),
};

/** Subject prefix of the event bus (`pp`); tests and side-by-side deployments use their own. */
export const eventsPrefix = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,30}$/, 'must be a short lowercase name')
  .default('pp');

/**
 * On how many servers of the NATS cluster the event streams keep each event: 1 for a single server,
 * 3 for a cluster that may lose one (at most 5, the most JetStream keeps).
 */
export const eventsReplicas = z.coerce.number().int().min(1).max(5).default(1);

/** Settings every service process shares. */
export const serviceEnv = {
  PORT: port(0),
  HOST: listenHost,
  LOG_LEVEL: logLevel,
  DATABASE_URL: postgresUrl,
  NATS_URL: natsUrl,
  ...natsCredentials,
  INTERNAL_SIGNING_KEY: secret,
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  EVENTS_PREFIX: eventsPrefix,
  EVENTS_REPLICAS: eventsReplicas,
};

export * from './units.ts';
export { z };
