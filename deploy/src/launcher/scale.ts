import { parseArgs } from 'node:util';

/** How many of everything `npm start` runs. */
export interface Scale {
  /** Processes of every unit and of the gateway (more than one: a front spreads connections over them). */
  replicas: number;
  /** NATS servers the launcher runs as one JetStream cluster (1: a single server, as without the option). */
  natsCluster: number;
}

/** JetStream keeps a stream on at most five servers. */
export const MAX_STREAM_REPLICAS = 5;
const MAX_REPLICAS = 8;
const MAX_NATS_SERVERS = 7;

function count(value: string | undefined, what: string, max: number): number {
  if (value === undefined || value.trim() === '') return 1;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > max)
    throw new Error(`${what} must be a whole number from 1 to ${max}, not "${value}"`);
  return n;
}

/**
 * `--replicas N` and `--nats-cluster M` from the command line (`npm start -- --replicas 2`), else from
 * LAUNCHER_REPLICAS and LAUNCHER_NATS_CLUSTER. A bad value, or an option the launcher does not know,
 * throws with a message that names it.
 */
export function parseScale(argv: readonly string[], env: Record<string, string | undefined>): Scale {
  const { values } = parseArgs({
    args: [...argv],
    options: { replicas: { type: 'string' }, 'nats-cluster': { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  const replicas = values.replicas ?? env.LAUNCHER_REPLICAS;
  const cluster = values['nats-cluster'] ?? env.LAUNCHER_NATS_CLUSTER;
  return {
    replicas: count(replicas, values.replicas ? '--replicas' : 'LAUNCHER_REPLICAS', MAX_REPLICAS),
    natsCluster: count(
      cluster,
      values['nats-cluster'] ? '--nats-cluster' : 'LAUNCHER_NATS_CLUSTER',
      MAX_NATS_SERVERS,
    ),
  };
}

/** What to warn about before starting at this scale: settings that do not do what they seem to. */
export function scaleWarnings(scale: Scale, env: Record<string, string | undefined>): string[] {
  const warnings: string[] = [];
  if (scale.replicas > 1 && !env.REDIS_URL)
    warnings.push(
      `REDIS_URL is not set: each of the ${scale.replicas} gateway replicas counts requests alone, so a client ` +
        `gets up to ${scale.replicas} times RATE_LIMIT_PER_MINUTE; set REDIS_URL to share the counts`,
    );
  if (scale.natsCluster === 2)
    warnings.push('a NATS cluster of 2 cannot lose a server (JetStream needs a majority): use 3');
  return warnings;
}
