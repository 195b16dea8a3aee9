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
 * How the front tells which replicas are ready: each one's `/readyz`, asked every `intervalMs`. A
 * replica that answers not ready is taken at its word at once; one that does not answer within
 * `timeoutMs` (busy, or gone) is counted not ready after `failureThreshold` such questions in a row,
 * as a Kubernetes readiness probe does, so a replica slow to answer on a busy machine is not dropped.
 */
export interface ReadinessProbe {
  path: string;
  intervalMs: number;
  timeoutMs: number;
  failureThreshold: number;
}

export const DEFAULT_READINESS: ReadinessProbe = {
  path: '/readyz',
  intervalMs: 2_000,
  timeoutMs: 1_000,
  failureThreshold: 3,
};

/**
 * Which replicas said ready when last asked (a replica that is starting, or has lost a dependency the
 * others still reach, says not ready). Asked once at the start and then every `intervalMs`, one
 * question per replica at a time; until the first answer a replica counts as ready.
 */
function watchReadiness(backends: readonly number[], probe: ReadinessProbe) {
  const notReady = new Set<number>();
  /** Questions in a row a replica left unanswered. */
  const unanswered = new Map<number, number>();
  const stopping = new AbortController();
  const ask = async (port: number) => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${probe.path}`, {
        signal: AbortSignal.any([AbortSignal.timeout(probe.timeoutMs), stopping.signal]),
      });
      await res.arrayBuffer().catch(() => undefined);
      unanswered.delete(port);
      if (res.status === 200) notReady.delete(port);
      else notReady.add(port);
    } catch {
      const missed = (unanswered.get(port) ?? 0) + 1;
      unanswered.set(port, missed);
      if (missed >= probe.failureThreshold) notReady.add(port);
    }
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
 */
export async function startFront(
  name: string,
  port: number,
  backends: readonly number[],
  log: LauncherLog,
  host = '127.0.0.1',
  readiness: ReadinessProbe = DEFAULT_READINESS,
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
