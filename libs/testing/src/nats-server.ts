import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`nothing listens on ${port}`);
}

/**
 * A NATS server of the test's own (JetStream, its own store), so a test can stop and restart the
 * broker without touching the one other tests use. `config`: a configuration file (e.g. one that
 * requires users), with `env` for the variables it reads.
 */
export async function startNatsServer(
  options: { port?: number; storeDir?: string; config?: string; env?: Record<string, string> } = {},
) {
  const port = options.port ?? (await freePort());
  const storeDir = options.storeDir ?? mkdtempSync(join(tmpdir(), 'pp-nats-'));
  const bin = process.env.NATS_SERVER_BIN ?? 'nats-server';
  let child: ChildProcess | undefined;
  const start = async () => {
    const config = options.config ? ['-c', options.config] : [];
    child = spawn(bin, [...config, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: 'ignore',
      env: options.env ? { PATH: process.env.PATH, ...options.env } : process.env,
    });
    await waitForPort(port, 5_000);
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop,
    restart: start,
    /** Stops the server and removes its store. */
    destroy: async () => {
      await stop();
      if (!options.storeDir) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
