/**
 * The yardstick of a gateway: express and http-proxy-middleware in front of TARGET_URL, nothing else.
 * Run as a process of its own (`node bench/src/bare-proxy.ts`); prints `{"port": n}` once it listens,
 * and answers a `cpu` message with its CPU usage (CPU per request holds up on a busy machine where
 * requests per second do not).
 */
import http from 'node:http';
import express from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';

const target = process.env.TARGET_URL;
if (!target) throw new Error('TARGET_URL is required');
const app = express();
app.use(createProxyMiddleware({ target, agent: new http.Agent({ keepAlive: true, maxSockets: 512 }) }));
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
process.on('message', (m) => {
  if (m === 'cpu') process.send?.(process.cpuUsage());
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
