import http from 'node:http';
import type net from 'node:net';
import { keepAliveAgent } from '@pp/http';

/**
 * An HTTP proxy on 127.0.0.1 that sends each request to the next of several replicas in turn, the way
 * a load balancer in front of a unit's replicas does: a test set as the unit's URL sees whether any
 * answer depends on which replica it reached. Bodies and answers are streamed (live streams too), and
 * the requests are recorded.
 */
export async function startRoundRobinProxy(
  targets: string[],
  options: {
    /**
     * Runs once a replica has answered a request (`METHOD /path`, with its status) and before the
     * answer goes back: a test acts at that very point (e.g. takes the caller's database away).
     */
    beforeAnswer?: (request: string, status: number) => void | Promise<void>;
  } = {},
) {
  const agent = keepAliveAgent();
  const upstreams = targets.map((t) => new URL(t));
  let next = 0;
  const sockets = new Set<net.Socket>();
  /** Every request that came through, as `METHOD /path`, for tests that count calls. */
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const request = `${req.method} ${req.url}`;
    seen.push(request);
    const target = upstreams[next++ % upstreams.length]!;
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        const pass = () => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        };
        if (!options.beforeAnswer) return pass();
        void Promise.resolve(options.beforeAnswer(request, answer.statusCode ?? 502)).then(pass, pass);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
