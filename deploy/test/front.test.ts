import http from 'node:http';
import type net from 'node:net';
import { until } from '@pp/testing';
import { startFront, type Front } from '../src/launcher/front.ts';
import { ephemeralPort } from '../src/launcher/ports.ts';
import { capturedLog } from './support/captured-log.ts';
import { freshRequest } from './support/fresh-request.ts';

/**
 * A replica that answers every request with its name; `/readyz` with 200 while `ready()` says so, else
 * 503; or not at all while `ready()` says `'silent'` (a replica too busy to answer in time).
 */
async function replica(
  name: string,
  ready: () => boolean | 'silent' = () => true,
): Promise<{ port: number; server: http.Server }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/readyz') {
      const state = ready();
      if (state === 'silent') return;
      if (!state) res.statusCode = 503;
    }
    res.end(name);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, server };
}

describe('the front over replicas', () => {
  const servers: http.Server[] = [];
  let front: Front | undefined;
  afterEach(async () => {
    await front?.close();
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  it('hands connections to the replicas in turn, skipping one that is down', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    servers.push(a.server, b.server);
    const down = await ephemeralPort('127.0.0.1');
    const port = await ephemeralPort('127.0.0.1');
    front = await startFront('gateway', port, [a.port, down, b.port], capturedLog().log);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await freshRequest(`http://127.0.0.1:${port}/`)).text);
    expect(answers.filter((x) => x === 'a').length).toBeGreaterThanOrEqual(2);
    expect(answers.filter((x) => x === 'b').length).toBeGreaterThanOrEqual(2);
    expect(answers.every((x) => x === 'a' || x === 'b')).toBe(true);
    expect(front.handed.get(down)).toBe(0);
    expect(front.handed.get(a.port)! + front.handed.get(b.port)!).toBe(6);
  });

  it('hands connections only to the replicas that say ready, and to any when none does', async () => {
    let bReady = false;
    let aReady = true;
    const [a, b] = [await replica('a', () => aReady), await replica('b', () => bReady)];
    servers.push(a.server, b.server);
    const port = await ephemeralPort('127.0.0.1');
    const probe = { path: '/readyz', intervalMs: 50, timeoutMs: 1_000, failureThreshold: 3 };
    front = await startFront('gateway', port, [a.port, b.port], capturedLog().log, '127.0.0.1', probe);
    const answers = async (n: number) => {
      const got: string[] = [];
      for (let i = 0; i < n; i++) got.push((await freshRequest(`http://127.0.0.1:${port}/`)).text);
      return got;
    };
    // Until b's first answer is in (a probe every 50 ms), then only a.
    await until(async () => (await answers(4)).every((x) => x === 'a'));
    expect(await answers(6)).toEqual(['a', 'a', 'a', 'a', 'a', 'a']);

    bReady = true;
    await until(async () => (await answers(4)).includes('b'));
    const both = await answers(6);
    expect(both.filter((x) => x === 'b').length).toBeGreaterThanOrEqual(2);
    expect(both.filter((x) => x === 'a').length).toBeGreaterThanOrEqual(2);

    // Neither ready (a dependency of both is down): each still gets connections, to answer 503 itself.
    aReady = bReady = false;
    await until(async () => {
      const got = await answers(4);
      return got.includes('a') && got.includes('b');
    });
  });

  // A failed question is an answer of not ready (a check that timed out on a busy machine is one) or
  // none in time (a replica too busy to answer): either counts, and only failureThreshold in a row take
  // the replica out of turn, as a Kubernetes readiness probe does.
  it.each([
    ['answers not ready', () => false],
    ['leaves its readiness unanswered', () => 'silent' as const],
  ])('keeps a replica that %s until it has done so failureThreshold times in a row', async (_, bReady) => {
    const [a, b] = [await replica('a'), await replica('b', bReady)];
    servers.push(a.server, b.server);
    const answers = async (n: number) => {
      const got: string[] = [];
      for (let i = 0; i < n; i++) got.push((await freshRequest(`http://127.0.0.1:${port}/`)).text);
      return got;
    };
    // Many failed questions (50 ms each at most), fewer than the threshold: b stays in turn.
    let port = await ephemeralPort('127.0.0.1');
    const patient = { path: '/readyz', intervalMs: 10, timeoutMs: 50, failureThreshold: 10_000 };
    front = await startFront('gateway', port, [a.port, b.port], capturedLog().log, '127.0.0.1', patient);
    await new Promise((r) => setTimeout(r, 500));
    expect((await answers(6)).filter((x) => x === 'b').length).toBeGreaterThanOrEqual(2);
    await front.close();

    // Three in a row: b is out of turn while a is ready.
    port = await ephemeralPort('127.0.0.1');
    const strict = { ...patient, failureThreshold: 3 };
    front = await startFront('gateway', port, [a.port, b.port], capturedLog().log, '127.0.0.1', strict);
    await until(async () => (await answers(4)).every((x) => x === 'a'));
    expect(await answers(6)).toEqual(['a', 'a', 'a', 'a', 'a', 'a']);
  });

  it('closes a connection that no replica accepts, and closes open ones when it closes', async () => {
    const port = await ephemeralPort('127.0.0.1');
    front = await startFront('sessions', port, [await ephemeralPort('127.0.0.1')], capturedLog().log);
    await expect(freshRequest(`http://127.0.0.1:${port}/`)).rejects.toThrow();

    const hanging = http.createServer(() => undefined); // never answers
    servers.push(hanging);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const other = await ephemeralPort('127.0.0.1');
    await front.close();
    front = await startFront(
      'sessions',
      other,
      [(hanging.address() as net.AddressInfo).port],
      capturedLog().log,
    );
    const pending = freshRequest(`http://127.0.0.1:${other}/`);
    await new Promise((r) => setTimeout(r, 200));
    await front.close();
    front = undefined;
    await expect(pending).rejects.toThrow();
  });
});
