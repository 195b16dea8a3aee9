import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Express } from 'express';
import type { Logger } from '@pp/logger';
import { errorEnvelope } from './envelope.ts';
import { nodeHttp } from './node-http.ts';

/**
 * What node's HTTP parser refuses before any route sees the request (headers over 16 KB, a request
 * line that is not HTTP, headers that took too long) gets the same JSON error envelope as everything
 * else, instead of node's bare status line.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket) {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request headers are too large (at most 16 KB in all)']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive']
        : [400, 'bad_request', 'The request is not valid HTTP'];
  const body = JSON.stringify(errorEnvelope(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${nodeHttp.STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  close: () => Promise<void>;
}

/** Listens on the port (0 in tests) and resolves once the socket is bound. */
export async function listen(app: Express, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  const server = app.listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const bound = (server.address() as AddressInfo).port;
  return {
    server,
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        // A keep-alive connection whose request finishes after this point turns idle and would hold the
        // close up until its client lets go (or keepAliveTimeout): close idle connections as they appear.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

export interface ShutdownOptions {
  logger: Logger;
  timeoutMs: number;
  /** Run in order after the server stops accepting: drain work, then close the database and NATS. */
  steps: Array<[name: string, step: () => Promise<unknown>]>;
  onStart?: () => void;
}

/**
 * SIGTERM / SIGINT: stop accepting, let in-flight requests finish, run the shutdown steps, exit.
 * A second signal or the timeout forces the exit.
 */
export function installGracefulShutdown(
  running: RunningServer,
  options: ShutdownOptions,
): () => Promise<void> {
  let shuttingDown: Promise<void> | undefined;
  const shutdown = () => {
    if (shuttingDown) return shuttingDown;
    options.onStart?.();
    options.logger.info('shutting down');
    const timer = setTimeout(() => {
      options.logger.error('shutdown timed out, exiting');
      process.exit(1);
    }, options.timeoutMs);
    timer.unref();
    shuttingDown = (async () => {
      await running.close();
      for (const [name, step] of options.steps) {
        try {
          await step();
        } catch (err) {
          options.logger.warn({ err, step: name }, 'shutdown step failed');
        }
      }
      clearTimeout(timer);
      options.logger.info('stopped');
    })();
    return shuttingDown;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      options.logger.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    void shutdown().then(() => process.exit(0));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return shutdown;
}
