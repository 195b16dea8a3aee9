/**
 * Webhook delivery, measured on the platform in one process (identity, sessions, stories, the gateway,
 * the webhooks unit with its real retry schedule) against local receivers:
 * 1. reveal to receipt: the time from a reveal's answer to a generic endpoint receiving it, over 200
 *    reveals one after another (target: p95 under 300 ms);
 * 2. throughput: 100 fast endpoints subscribed to story.created; with the unit stopped, stories are
 *    added (their events wait in JetStream), then the unit starts and the deliveries are timed from
 *    the first receipt to the last (target: at least 1,000 deliveries/s);
 * 3. the same with one more endpoint answering after 5 s: the fast endpoints' rate may drop by 10 % at
 *    most. Rounds 2 and 3 alternate three times (the machine is shared); each figure is the median of
 *    its rounds, and every round must deliver all of its deliveries (a round that misses any fails).
 * Run alone with `node services/webhooks/bench/webhooks.bench.ts`; exits 0 when every target is met.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startWebhooksPlatform } from '../test/support/webhooks-harness.ts';

const REVEALS = 200;
const ENDPOINTS = 100;
const STORIES = Number(process.env.WEBHOOK_BENCH_STORIES ?? 100);
/** Rounds without and with the slow endpoint, alternating: the median of each is compared (the machine is shared). */
const ROUNDS = Number(process.env.WEBHOOK_BENCH_ROUNDS ?? 3);
const log = (line: string) => process.stdout.write(`${line}\n`);

/** A receiver answering 204 (after `delayMs`), calling `onReceipt` with each body as it arrives. */
async function receiver(onReceipt: (body: string) => void, delayMs = 0) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      onReceipt(Buffer.concat(chunks).toString('utf8'));
      if (delayMs) setTimeout(() => res.writeHead(204).end(), delayMs);
      else res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const p = await startWebhooksPlatform({
  env: { WEBHOOKS_RETRY_SCALE: '1', WEBHOOKS_POLL_MS: '1000', LOG_LEVEL: 'warn' },
  ownProcess: true,
});
const closers: Array<() => Promise<unknown>> = [];
let failed = false;
try {
  const token = await p.signUp('Bench');
  const call = async (method: 'get' | 'post' | 'patch', path: string, body?: unknown) => {
    const res = await p.client.raw[method](path, { token, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const session = (await call('post', '/sessions', { name: 'Bench', record_vote_names: true })).session;

  // 1. reveal to receipt
  const arrived = new Map<string, number>();
  const revealReceiver = await receiver((body) => {
    arrived.set((JSON.parse(body) as { data: { story: { id: string } } }).data.story.id, performance.now());
  });
  closers.push(revealReceiver.close);
  await call('post', '/webhooks', { url: revealReceiver.url, events: ['story.revealed'] });
  const { participant } = await call('post', `/sessions/${session.code}/join`, { name: 'Voter' });
  const latencies: number[] = [];
  for (let i = 0; i < REVEALS; i++) {
    const story = (await call('post', `/sessions/${session.code}/stories`, { title: `Reveal ${i}` })).story
      .id as string;
    await call('post', `/sessions/${session.code}/vote`, { participant_id: participant.id, vote: '5' });
    await call('post', `/stories/${story}/reveal`);
    const answered = performance.now();
    while (!arrived.has(story)) await new Promise((r) => setTimeout(r, 1));
    latencies.push(arrived.get(story)! - answered);
  }
  latencies.sort((a, b) => a - b);
  const [p50, p95] = [percentile(latencies, 50), percentile(latencies, 95)];
  const latencyMet = p95 < 300;
  log(
    `webhooks: reveal to receipt over ${REVEALS} reveals: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms ` +
      `(target p95 < 300 ms): ${latencyMet ? 'met' : 'NOT met'}`,
  );

  // 2 and 3. throughput, without and with a slow endpoint
  let fastReceipts = 0;
  const fast = await Promise.all(Array.from({ length: ENDPOINTS }, () => receiver(() => fastReceipts++)));
  closers.push(...fast.map((f) => f.close));
  const slow = await receiver(() => undefined, 5_000);
  closers.push(slow.close);
  for (const f of fast) await call('post', '/webhooks', { url: f.url, events: ['story.created'] });
  const slowHook = (await call('post', '/webhooks', { url: slow.url, events: ['story.created'] })).webhook
    .id as string;

  /** One round: the rate of the fast endpoints' deliveries, and whether every one of them arrived. */
  async function drain(withSlow: boolean): Promise<{ rate: number; complete: boolean }> {
    await call('patch', `/webhooks/${slowHook}`, { enabled: withSlow });
    await p.stopWebhooks();
    for (let i = 0; i < STORIES; i++)
      await call('post', `/sessions/${session.code}/stories`, { title: `Load ${i}` });
    fastReceipts = 0;
    const target = STORIES * ENDPOINTS;
    await p.startWebhooks();
    while (fastReceipts === 0) await new Promise((r) => setTimeout(r, 1));
    const first = performance.now();
    const deadline = first + 120_000;
    while (fastReceipts < target && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const rate = (fastReceipts - 1) / ((performance.now() - first) / 1000);
    log(
      `webhooks: ${fastReceipts} of ${target} deliveries to ${ENDPOINTS} fast endpoints` +
        `${withSlow ? ' beside one answering in 5 s' : ''}: ${Math.round(rate)} deliveries/s`,
    );
    return { rate, complete: fastReceipts === target };
  }
  const [alone, beside]: [
    Array<{ rate: number; complete: boolean }>,
    Array<{ rate: number; complete: boolean }>,
  ] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    alone.push(await drain(false));
    beside.push(await drain(true));
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const [medianAlone, medianBeside] = [median(alone.map((r) => r.rate)), median(beside.map((r) => r.rate))];
  const allArrived = [...alone, ...beside].every((r) => r.complete);
  const rateMet = allArrived && medianAlone >= 1_000;
  const slowMet = allArrived && medianBeside >= 0.9 * medianAlone;
  log(`webhooks: every round delivered all ${STORIES * ENDPOINTS} deliveries: ${allArrived ? 'yes' : 'NO'}`);
  log(
    `webhooks: throughput ${Math.round(medianAlone)} deliveries/s, the median of ${ROUNDS} round(s) ` +
      `(target >= 1,000/s, all delivered): ${rateMet ? 'met' : 'NOT met'}`,
  );
  log(
    `webhooks: with a 5 s endpoint ${Math.round(medianBeside)} deliveries/s (median), ` +
      `${Math.round((100 * medianBeside) / medianAlone)} % of the rate without it (target >= 90 %, all delivered): ` +
      `${slowMet ? 'met' : 'NOT met'}`,
  );
  failed = !(latencyMet && rateMet && slowMet);
} catch (err) {
  log(`webhooks benchmark failed: ${(err as Error).stack ?? String(err)}`);
  failed = true;
} finally {
  await p.stop();
  for (const close of closers) await close();
}
process.exitCode = failed ? 1 : 0;
