/**
 * startTracing as a unit runs it: a child process with the SDK exporting OTLP/JSON to a local
 * receiver. A request is one server span named after its route and one span per query, without the
 * spans that only repeat them (each express layer's, the pool's connect).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { testServerUrl, until } from '@pp/testing';

const SERVICE = fileURLToPath(new URL('./support/traced-service.ts', import.meta.url));

interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

/** An OTLP/HTTP receiver of JSON exports that keeps their spans. */
async function receiver() {
  const spans: OtlpSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans?: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
      };
      for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, server };
}

describe('startTracing in a process of its own', () => {
  it('traces a request as its route and its query, no span per layer or per connection', async () => {
    const sink = await receiver();
    const child = spawn(process.execPath, [SERVICE], {
      env: {
        ...process.env,
        DATABASE_URL: testServerUrl(),
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [port] = (await once(child.stdout!, 'data')) as [Buffer];
      const base = `http://127.0.0.1:${String(port).trim()}`;
      for (const id of [1, 2]) expect(await (await fetch(`${base}/things/${id}`)).json()).toEqual({ id });
      await fetch(`${base}/stop`);
      await once(child, 'exit');

      const servers = await until(async () => {
        const found = sink.spans.filter((s) => s.name === 'GET /things/:id');
        return found.length === 2 ? found : undefined;
      });
      for (const server of servers) {
        const inTrace = sink.spans.filter((s) => s.traceId === server.traceId && s !== server);
        // The query, below the server span; nothing else.
        expect(inTrace.map((s) => s.name)).toEqual([expect.stringMatching(/^pg\.query/)]);
        expect(inTrace[0]!.parentSpanId).toBe(server.spanId);
      }
      expect(sink.spans.map((s) => s.name)).not.toContain('request handler');
      expect(sink.spans.filter((s) => /^pg(-pool)?\.connect/.test(s.name))).toEqual([]);
    } finally {
      child.kill();
      sink.server.close();
    }
  }, 30_000);
});
