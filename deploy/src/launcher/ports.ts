import { readFileSync } from 'node:fs';
import net from 'node:net';
import { machinePorts } from './port-reservations.ts';
import type { Unit } from './units.ts';

/** True when nothing listens on the port (any address, unless a host is given) and we may bind it. */
export function isPortFree(port: number, host?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** PORT as `npm start` takes it for the gateway: unset, or a port number; anything else names the variable. */
export function requestedPort(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port < 1 || port > 65535)
    throw new Error(`PORT must be a port number from 1 to 65535, not "${value}"`);
  return port;
}

/** A port the system hands out as free right now. */
export function ephemeralPort(host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The first port of the range the system hands out by itself (to a listen on port 0, or to an outgoing
 * connection): Linux says where it starts; elsewhere it is the registered range's end (49152).
 */
export function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const port = Number(low);
    if (Number.isInteger(port) && port > 1024) return port;
  } catch {
    // not Linux
  }
  return 49_152;
}

/** Where a port is chosen when the preferred one is taken: below the ephemeral range, which the system never hands out. */
const CHOSEN_FROM = 20_000;

/** A free port from below the ephemeral range (a port from the system when that range is too narrow to find one). */
async function unassignedPort(): Promise<number> {
  const end = Math.min(ephemeralRangeStart(), 49_152);
  for (let attempt = 0; attempt < 50 && end - CHOSEN_FROM > 1_000; attempt++) {
    const port = CHOSEN_FROM + Math.floor(Math.random() * (end - CHOSEN_FROM));
    if (await isPortFree(port)) return port;
  }
  return ephemeralPort();
}

/**
 * The preferred port when it is free, else another free port; `taken` holds ports already promised in
 * this launch. The port is recorded as this process's for the launches on this machine (see
 * `portReservations`), and one another launch holds is passed over.
 */
export async function findFreePort(
  preferred: number,
  taken: ReadonlySet<number> = new Set(),
): Promise<number> {
  if (
    preferred > 0 &&
    !taken.has(preferred) &&
    (await isPortFree(preferred)) &&
    machinePorts.reserve(preferred)
  )
    return preferred;
  for (;;) {
    const port = await unassignedPort();
    if (!taken.has(port) && machinePorts.reserve(port)) return port;
  }
}

/** Resolves once something accepts TCP connections on the port, or rejects after the timeout. */
export async function waitForPort(port: number, timeoutMs: number, host = '127.0.0.1'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing answered on ${host}:${port} within ${timeoutMs} ms`);
}

/** A port for each unit: PORT for the gateway when given, else its preferred port when free, else any free one. */
export async function choosePorts(
  gatewayPort: number | undefined,
  list: readonly Unit[],
): Promise<Map<string, number>> {
  const ports = new Map<string, number>();
  const taken = new Set<number>();
  for (const unit of list) {
    let port: number;
    if (unit.name === 'gateway' && gatewayPort) {
      port = gatewayPort;
      if (!(await isPortFree(port)) || !machinePorts.reserve(port))
        throw new Error(`PORT ${port} is already in use`);
    } else {
      port = await findFreePort(unit.preferredPort, taken);
    }
    ports.set(unit.name, port);
    taken.add(port);
  }
  return ports;
}

/** `count` free ports for each unit's replicas, none of them among the ports already chosen. */
export async function chooseReplicaPorts(
  list: readonly Unit[],
  count: number,
  chosen: ReadonlyMap<string, number>,
): Promise<Map<string, number[]>> {
  const taken = new Set(chosen.values());
  const ports = new Map<string, number[]>();
  for (const unit of list) {
    const own: number[] = [];
    for (let i = 0; i < count; i++) {
      const port = await findFreePort(0, taken);
      taken.add(port);
      own.push(port);
    }
    ports.set(unit.name, own);
  }
  return ports;
}
