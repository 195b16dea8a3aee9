import net from 'node:net';

/** True when nothing listens on the port (any address, unless a host is given) and we may bind it. */
export function isPortFree(port: number, host?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
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

/** The preferred port when it is free, else any free port; `taken` holds ports already promised in this launch. */
export async function findFreePort(
  preferred: number,
  taken: ReadonlySet<number> = new Set(),
): Promise<number> {
  if (preferred > 0 && !taken.has(preferred) && (await isPortFree(preferred))) return preferred;
  for (;;) {
    const port = await ephemeralPort();
    if (!taken.has(port)) return port;
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
