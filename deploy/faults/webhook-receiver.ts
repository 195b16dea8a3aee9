/**
 * The webhook receiver: an HTTP server on 127.0.0.1 that notes every delivery (its `webhook-id` and
 * which reveal it carries). It refuses the first attempt of some deliveries with 503, so that retries
 * happen under the run too: a retry must reuse the delivery's `webhook-id`.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Delivery } from './observations.ts';

export interface WebhookReceiver {
  url: string;
  deliveries: Delivery[];
  /** Requests answered 503 on purpose. */
  refused: number;
  close(): Promise<void>;
}

/** About one delivery in five is refused the first time, chosen by its id (the same on every run of it). */
const refuseFirst = (webhookId: string) => createHash('sha256').update(webhookId).digest()[0]! < 52;

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const attempts = new Map<string, number>();
  const receiver: WebhookReceiver = { url: '', deliveries, refused: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const webhookId = String(req.headers['webhook-id'] ?? '');
      let body: { type?: string; data?: { story?: { id?: string } } } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        // noted without a type: the checker finds no reveal in it
      }
      const attempt = (attempts.get(webhookId) ?? 0) + 1;
      attempts.set(webhookId, attempt);
      deliveries.push({ webhookId, type: body.type ?? '', storyId: body.data?.story?.id });
      if (attempt === 1 && refuseFirst(webhookId)) {
        receiver.refused++;
        res.writeHead(503).end();
      } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
