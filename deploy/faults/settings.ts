/** The run's settings from its command line: `--short`, `--plain`, `--seconds N`. */

export interface RunSettings {
  layout: 'cluster' | 'plain';
  short: boolean;
  /** How long the traffic runs at least (the faults' schedule may take longer). */
  trafficMs: number;
  /** Pause after each fault's end before the next one (the recovery the checks measure). */
  recoveryGapMs: number;
  /** Traffic before the first fault. */
  warmUpMs: number;
  natsOutageMs: number;
  postgresOutageMs: number;
  /** A killed NATS server of the cluster stays down this long. */
  natsKillMs: number;
  /** The gateway's upstream timeout; each request of the run gives up a few seconds after it. */
  upstreamTimeoutMs: number;
  clientTimeoutMs: number;
  /** The system must write again this soon after a dependency's return. */
  recoveryLimitMs: number;
  rooms: number;
  clientsPerRoom: number;
  /** How many times the schedule of faults runs. */
  rounds: number;
}

export function readSettings(argv: readonly string[]): RunSettings {
  const has = (flag: string) => argv.includes(flag);
  const secondsAt = argv.indexOf('--seconds');
  const seconds = secondsAt >= 0 ? Number(argv[secondsAt + 1]) : undefined;
  if (seconds !== undefined && !(Number.isInteger(seconds) && seconds > 0 && seconds <= 3_600))
    throw new Error('--seconds takes a whole number of seconds from 1 to 3600');
  const unknown = argv.filter(
    (a, i) => !['--short', '--plain', '--cluster', '--seconds'].includes(a) && argv[i - 1] !== '--seconds',
  );
  if (unknown.length > 0)
    throw new Error(`unknown option ${unknown.join(' ')} (--short, --plain, --seconds N)`);
  const short = has('--short');
  return {
    layout: has('--plain') ? 'plain' : 'cluster',
    short,
    trafficMs: (seconds ?? (short ? 30 : 240)) * 1_000,
    recoveryGapMs: short ? 4_000 : 15_000,
    warmUpMs: short ? 2_000 : 10_000,
    natsOutageMs: 20_000,
    postgresOutageMs: 10_000,
    natsKillMs: short ? 3_000 : 15_000,
    upstreamTimeoutMs: 15_000,
    clientTimeoutMs: 20_000,
    recoveryLimitMs: 10_000,
    rooms: short ? 2 : 3,
    clientsPerRoom: short ? 2 : 3,
    rounds: short ? 1 : 2,
  };
}
