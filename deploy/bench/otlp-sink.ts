import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OTLP/HTTP receiver that takes every export and drops it (an empty protobuf answer is an
 * export accepted whole): what a traced benchmark points OTEL_EXPORTER_OTLP_ENDPOINT at, so that it
 * measures what tracing costs the units, not what a collector does with the spans.
 */
export async function startOtlpSink() {
  let exports = 0;
  let bytes = 0;
  const server = http.createServer((req, res) => {
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on('end', () => {
      if (req.url?.startsWith('/v1/')) exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** How many exports came, and their bytes. */
    received: () => ({ exports, bytes }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
