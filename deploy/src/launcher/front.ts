import net from 'node:net';
import type { LauncherLog } from './log.ts';

/** A round-robin TCP front over a unit's replicas, as a Kubernetes Service spreads connections over pods. */
export interface Front {
  name: string;
  port: number;
  /** How many connections each replica (by port) was handed, for tests and tools. */
  readonly handed: ReadonlyMap<number, number>;
  close(): Promise<void>;
}

/**
 * How the front tells which replicas are ready: each one's readiness path, asked every `intervalMs`. A
 * replica is counted not ready after `failureThreshold` failed questions in a row (an answer other than
 * 200, or none within `timeoutMs`: busy, or gone), and ready again at its first 200, as a Kubernetes
 * readiness probe does, so one slow or failed check on a busy machine does not take a replica out.
 */
export interface ReadinessProbe {
  path: string;
  intervalMs: number;
  timeoutMs: number;
  failureThreshold: number;
}

const DEFAULT_READINESS: Omit<ReadinessProbe, 'path'> = {
  intervalMs: 2_000,
  timeoutMs: 1_000,
  failureThreshold: 3,
};

/**
 * Where a unit's readiness is asked, here and in the Kubernetes manifests alike. A unit is ready when its
 * database and broker answer (`/readyz`). The gateway when it serves (`/healthz`): its `/readyz` is 200
 * only when every unit is, and as the gateway's own readiness that would take a gateway out of turn for
 * one slow or missing unit, whose paths it answers with 503 itself.
 */
export function readinessPathOf(unit: string): string {
  return unit === 'gateway' ? '/healthz' : '/readyz';
}

/**
 * Which replicas said ready when last asked (a replica that is starting, or has lost a dependency the
 * others still reach, says not ready). Asked once at the start and then every `intervalMs`, one
 * question per replica at a time; until the first answer a replica counts as ready.
 */
function watchReadiness(backends: readonly number[], probe: ReadinessProbe) {
  const notReady = new Set<number>();
  /** Failed questions in a row, by replica. */
  const failed = new Map<number, number>();
  const stopping = new AbortController();
  const ask = async (port: number) => {
    const ok = await fetch(`http://127.0.0.1:${port}${probe.path}`, {
      signal: AbortSignal.any([AbortSignal.timeout(probe.timeoutMs), stopping.signal]),
    }).then(
      async (res) => {
        await res.arrayBuffer().catch(() => undefined);
        return res.status === 200;
      },
      () => false,
    );
    if (ok) {
      failed.delete(port);
      notReady.delete(port);
      return;
    }
    const inARow = (failed.get(port) ?? 0) + 1;
    failed.set(port, inARow);
    if (inARow >= probe.failureThreshold) notReady.add(port);
  };
  for (const port of backends)
    void (async () => {
      while (!stopping.signal.aborted) {
        await ask(port);
        await new Promise((r) => setTimeout(r, probe.intervalMs).unref());
      }
    })();
  return {
    ready: (port: number) => !notReady.has(port),
    /** Ends the questions (one under way is abandoned). */
    stop: () => stopping.abort(),
  };
}

/**
 * Connects to the replicas in turn, starting from `first`: the first that accepts gets the connection,
 * ready replicas first; only when none of those accepts, one that says it is not ready (while a
 * dependency is down for every replica, each answers 503 with the envelope: better than no answer). A
 * replica that is down refuses at once (all on 127.0.0.1), so a dead one is skipped without a wait.
 */
function connectToOne(
  backends: readonly number[],
  first: number,
  ready: (port: number) => boolean,
): Promise<net.Socket | undefined> {
  const inTurn = backends.map((_, i) => backends[(first + i) % backends.length]!);
  const order = [...inTurn.filter(ready), ...inTurn.filter((p) => !ready(p))];
  return new Promise((resolve) => {
    const attempt = (tried: number) => {
      if (tried === order.length) return resolve(undefined);
      const port = order[tried]!;
      const socket = net.connect({ host: '127.0.0.1', port, allowHalfOpen: true });
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        resolve(socket);
      });
      socket.once('error', () => attempt(tried + 1));
    };
    attempt(0);
  });
}

/**
 * Both ways; an end of input from one side is passed on (half-open: the other may still answer), and once
 * either side is closed or fails, both are.
 */
function splice(client: net.Socket, backend: net.Socket): void {
  const closeBoth = () => {
    client.destroy();
    backend.destroy();
  };
  for (const socket of [client, backend]) {
    socket.once('error', closeBoth);
    socket.once('close', closeBoth);
  }
  client.pipe(backend);
  backend.pipe(client);
  client.resume();
}

/**
 * Listens on `host`:`port` and hands each connection to the next ready replica (on 127.0.0.1) that
 * accepts it, as a Kubernetes Service sends connections only to pods whose readiness probe passes.
 * Readiness is asked where the unit `name` answers it (readinessPathOf) unless `readiness` says otherwise.
 */
export async function startFront(
  name: string,
  port: number,
  backends: readonly number[],
  log: LauncherLog,
  host = '127.0.0.1',
  readiness: ReadinessProbe = { ...DEFAULT_READINESS, path: readinessPathOf(name) },
): Promise<Front> {
  const handed = new Map(backends.map((b) => [b, 0]));
  const readinessOf = watchReadiness(backends, readiness);
  const open = new Set<net.Socket>();
  let next = 0;
  const server = net.createServer({ pauseOnConnect: true, allowHalfOpen: true }, (client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.once('error', () => client.destroy());
    const first = next;
    next = (next + 1) % backends.length;
    void connectToOne(backends, first, readinessOf.ready).then((backend) => {
      if (!backend || client.destroyed) {
        backend?.destroy();
        client.destroy();
        return;
      }
      handed.set(backend.remotePort!, (handed.get(backend.remotePort!) ?? 0) + 1);
      open.add(backend);
      backend.once('close', () => open.delete(backend));
      splice(client, backend);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => resolve());
  }).catch((err: unknown) => {
    readinessOf.stop();
    throw err;
  });
  server.on('error', (err) => log.error(`${name} front: ${err.message}`));
  return {
    name,
    port,
    handed,
    close: () =>
      new Promise<void>((resolve) => {
        readinessOf.stop();
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
