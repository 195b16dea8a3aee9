import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../src/launcher/ports.ts';
import { nodeBinary, units } from '../src/launcher/units.ts';
import { capturedLog } from './support/captured-log.ts';
import { standInFor, standInSystem } from './support/stand-in-system.ts';

/** An address of this machine other than loopback (undefined when it has none). */
const otherAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

/** Whether an HTTP server answers /healthz at host:port (asked from this test's process). */
const answers = (host: string, port: number) =>
  fetch(`http://${host}:${port}/healthz`, { signal: AbortSignal.timeout(3_000) }).then(
    (res) => res.status === 200,
    () => false,
  );

/**
 * The same, asked from another process, as a machine on the network would: this test's own process
 * refuses every connection beyond loopback (libs/testing's network guard).
 */
const answersFromOutside = (host: string, port: number) =>
  new Promise<boolean>((resolve, reject) => {
    const probe = `fetch('http://${host}:${port}/healthz', { signal: AbortSignal.timeout(3000) })
      .then((r) => console.log(r.status === 200), () => console.log(false))`;
    execFile(nodeBinary(), ['-e', probe], (err, stdout) =>
      err ? reject(err) : resolve(stdout.trim() === 'true'),
    );
  });

/** Whether the outside probe reaches a server of this machine listening on every interface. */
async function outsideReachesEveryInterface(host: string): Promise<boolean> {
  const server = http.createServer((_req, res) => res.end('ok')).listen(0, '0.0.0.0');
  await once(server, 'listening');
  try {
    return await answersFromOutside(host, (server.address() as AddressInfo).port);
  } finally {
    await new Promise((r) => server.close(r));
  }
}

/**
 * Under `npm start` nothing on the network reaches a unit around the gateway (its rate limits, its
 * checks): the services and, unless HOST says otherwise, the gateway listen on loopback only.
 */
describe('where the units listen under the launcher', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-listen-'));
  const real = ['identity', 'gateway'];
  const ports = new Map<string, number>();
  const { lines, log } = capturedLog();
  let stop = async () => undefined as void;
  afterAll(async () => {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves identity and the gateway on 127.0.0.1 and not on the machine’s other address', async () => {
    for (const name of real) ports.set(name, await findFreePort(0, new Set(ports.values())));
    // The real identity and gateway (their own main.ts, on chosen ports); stand-ins for the rest.
    const list = units.map((u) =>
      real.includes(u.name) ? { ...u, preferredPort: ports.get(u.name)! } : standInFor(u),
    );
    const system = standInSystem(dataDir, log, { units: list, readyTimeoutMs: 60_000 });
    stop = () => system.stop();
    await system.start().catch((err: Error) => {
      throw new Error(`${err.message}\n${lines.slice(-30).join('\n')}`);
    });
    for (const name of real)
      expect([name, await answers('127.0.0.1', ports.get(name)!)]).toEqual([name, true]);
    if (!otherAddress) return; // a machine with loopback only: nothing else to try
    // The probe itself reaches a server listening on every interface at that address.
    expect(await outsideReachesEveryInterface(otherAddress)).toBe(true);
    for (const name of real)
      expect([name, await answersFromOutside(otherAddress, ports.get(name)!)]).toEqual([name, false]);
  }, 90_000);
});
