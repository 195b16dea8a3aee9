import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a dependency (PostgreSQL, say), so a test can take the
 * dependency away from one service without touching the server other tests use: `cut()` drops every
 * connection and refuses new ones until `restore()`.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    cut: () => {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    restore: () => {
      cut = false;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
