import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a dependency (PostgreSQL, another unit), so a test can take the
 * dependency away from one service without touching the server other tests use: `cut()` drops every
 * connection and refuses new ones until `restore()`; `mute()` lets requests through but swallows
 * every answer (a dependency that acts and then never replies, or a reply lost on the way).
 */
export async function startTcpProxy(to: { host: string; port: number }) {
  let target = { ...to };
  const sockets = new Set<net.Socket>();
  let mode: 'open' | 'cut' | 'mute' = 'open';
  const server = net.createServer((client) => {
    if (mode === 'cut') {
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
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (mode === 'open') client.write(chunk);
    });
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    cut: () => {
      mode = 'cut';
      for (const s of sockets) s.destroy();
    },
    mute: () => {
      mode = 'mute';
    },
    restore: () => {
      mode = 'open';
    },
    /** Sends later connections elsewhere (a unit whose address is known only once it listens). */
    retarget: (next: { host: string; port: number }) => {
      target = { ...next };
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;
