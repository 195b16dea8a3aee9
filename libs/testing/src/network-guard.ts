import net from 'node:net';
import { isIP } from 'node:net';

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost']);

export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return true; // node's default host is localhost
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOOPBACK_NAMES.has(h)) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\./.test(h);
  return false;
}

let installed = false;

/** In tests, every outbound connection other than to this machine's loopback is refused. */
export function installNetworkGuard(): void {
  if (installed) return;
  installed = true;
  const original = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    // net.connect() hands the socket its arguments already normalized, as one array.
    const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    let host: string | undefined;
    if (first && typeof first === 'object') {
      const opts = first as { host?: string; path?: string };
      if (opts.path) return original.apply(this, args as never);
      host = opts.host;
    } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
      host = typeof args[1] === 'string' ? args[1] : undefined;
    } else if (typeof first === 'string') {
      return original.apply(this, args as never); // a unix socket path
    }
    if (!isLoopbackHost(host)) {
      throw new Error(`Outbound network refused in tests: ${host}`);
    }
    return original.apply(this, args as never);
  } as typeof net.Socket.prototype.connect;
}
