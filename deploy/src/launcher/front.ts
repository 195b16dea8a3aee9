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
 * Connects to the replicas in turn, starting from `first`: the first that accepts gets the connection. A
 * replica that is down refuses at once (all on 127.0.0.1), so a dead one is skipped without a wait.
 */
function connectToOne(backends: readonly number[], first: number): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    const attempt = (tried: number) => {
      if (tried === backends.length) return resolve(undefined);
      const port = backends[(first + tried) % backends.length]!;
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

/** Listens on 127.0.0.1:`port` and hands each connection to the next replica that accepts it. */
export async function startFront(
  name: string,
  port: number,
  backends: readonly number[],
  log: LauncherLog,
): Promise<Front> {
  const handed = new Map(backends.map((b) => [b, 0]));
  const open = new Set<net.Socket>();
  let next = 0;
  const server = net.createServer({ pauseOnConnect: true, allowHalfOpen: true }, (client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.once('error', () => client.destroy());
    const first = next;
    next = (next + 1) % backends.length;
    void connectToOne(backends, first).then((backend) => {
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
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve());
  });
  server.on('error', (err) => log.error(`${name} front: ${err.message}`));
  return {
    name,
    port,
    handed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
