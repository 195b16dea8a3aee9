import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a receiver got: its headers and raw body. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers the n-th request (1-based): a status, headers and a body. */
export type Answer = (
  n: number,
  req: Received,
) => {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  /** Answers once this settles (a receiver still busy while a test acts). */
  after?: Promise<unknown>;
};

/**
 * A webhook receiver on 127.0.0.1, speaking plain HTTP: it records what it gets and answers as told
 * (200 by default). It can be closed and opened again on the same port (a receiver that is down).
 */
export async function startReceiver(answer: Answer = () => ({ status: 200, body: 'ok' }), port = 0) {
  const received: Received[] = [];
  let respond = answer;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(got);
      const a = respond(received.length, got);
      const send = () => res.writeHead(a.status, a.headers).end(a.body ?? '');
      if (a.after) void a.after.then(send);
      else if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hook`,
    port: bound,
    received,
    /** The JSON bodies received so far. */
    bodies: () => received.map((r) => JSON.parse(r.body) as Record<string, any>),
    answerWith(next: Answer) {
      respond = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
