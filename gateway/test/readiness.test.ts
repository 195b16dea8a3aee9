import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { services } from '@pp/config';
import { startGateway, type GatewayHarness } from './support/gateway-harness.ts';

/** Units that only answer /readyz, each under a path of its own, counting how often they are asked. */
async function countingUnits() {
  const asked = new Map<string, number>();
  let ready = true;
  const server = http.createServer((req, res) => {
    const [, unit, path] = req.url!.split('/');
    if (path === 'readyz') asked.set(unit!, (asked.get(unit!) ?? 0) + 1);
    res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = Object.fromEntries(services.map((s) => [`${s.name.toUpperCase()}_URL`, `${base}/${s.name}`]));
  return {
    env,
    asked,
    setReady: (value: boolean) => void (ready = value),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('gateway: /readyz', () => {
  let units: Awaited<ReturnType<typeof countingUnits>>;
  let gateway: GatewayHarness;
  beforeAll(async () => {
    units = await countingUnits();
    // A unit's check may take its time on a busy machine: this test is about how often units are asked.
    gateway = await startGateway({ env: { ...units.env, READINESS_TIMEOUT_MS: '10000' } });
  });
  afterAll(async () => {
    await gateway.stop();
    await units.stop();
  });

  it('answers many hits from one check of each unit at a time, at most once a second, and stays unlimited', async () => {
    const hit = () => fetch(`${gateway.url}/readyz`, { headers: { 'x-forwarded-for': '10.6.0.1' } });
    const started = Date.now();
    const answers = [];
    for (let wave = 0; wave < 4; wave++)
      answers.push(...(await Promise.all(Array.from({ length: 50 }, hit))).map((r) => r.status));
    const elapsed = Date.now() - started;
    expect(new Set(answers)).toEqual(new Set([200]));
    expect([...units.asked.keys()].sort()).toEqual(services.map((s) => s.name).sort());
    // 200 hits: one check per unit per second that passed (and the first), never one per hit.
    for (const count of units.asked.values())
      expect(count).toBeLessThanOrEqual(2 + Math.floor(elapsed / 1000));
  });

  it('notices a unit going down within about a second', async () => {
    units.setReady(false);
    let status = 200;
    const until = Date.now() + 5_000;
    while (status === 200 && Date.now() < until) {
      status = (await fetch(`${gateway.url}/readyz`)).status;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(503);
    units.setReady(true);
  });
});
