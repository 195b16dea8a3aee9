/**
 * One big room on two replicas: 1,000 live room clients in one session, half through each of two
 * gateways, each gateway in front of its own replica of the sessions unit (the whole system as
 * `npm start` runs it, plus a second sessions replica and a second gateway with the same settings).
 * Rounds of a vote, a reveal and a reset: the time from the reveal's answer to `story.revealed` at
 * each client (0 when the event came first), the resident memory of each sessions replica, and the
 * events a client missed. Run alone with `node deploy/bench/room-fanout.bench.ts`; exits 0 when every
 * target is met.
 */
import { join } from 'node:path';
import { NODE_OPTIONS, repoRoot } from '../src/launcher/units.ts';
import {
  environmentOf,
  openClient,
  quantile,
  residentMb,
  startReplica,
  type FanoutClient,
} from './room-fanout-parts.ts';
import { benchSystem, json } from './whole-system.ts';

const CLIENTS = 1_000;
const ROUNDS = 5;
const P99_TARGET_MS = 250;
const RSS_TARGET_MB = 200;
const OPENING_AT_ONCE = 50;

const pidOf = (system: ReturnType<typeof benchSystem>, name: string) => {
  const pid = system.processes().find((p) => p.name === name)?.pid;
  if (!pid) throw new Error(`${name} is not running`);
  return pid;
};

async function until(done: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

async function openClients(gateways: string[], code: string) {
  const clients: FanoutClient[] = [];
  for (let i = 0; i < CLIENTS; i += OPENING_AT_ONCE)
    clients.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(OPENING_AT_ONCE, CLIENTS - i) }, (_, k) =>
          openClient(`${gateways[(i + k) % gateways.length]}/sessions/${code}/events`),
        ),
      )),
    );
  return clients;
}

/** Rounds of vote, reveal, reset; the latency of each reveal at each client, in ms. */
async function playRounds(gateway: string, token: string, code: string, clients: FanoutClient[]) {
  const story = (await json('POST', `${gateway}/sessions/${code}/stories`, { title: 'Fan-out' }, token))
    .story;
  const voter = (await json('POST', `${gateway}/sessions/${code}/join`, { name: 'Voter' })).participant;
  const latencies: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    await json('POST', `${gateway}/sessions/${code}/vote`, { participant_id: voter.id, vote: '5' });
    await new Promise((r) => setTimeout(r, 200));
    await json('POST', `${gateway}/stories/${story.id}/reveal`, undefined, token);
    const answered = performance.now();
    await until(() => clients.every((c) => c.revealedAt.length >= round), 10_000);
    for (const c of clients) {
      const at = c.revealedAt[round - 1];
      if (at !== undefined) latencies.push(Math.max(0, at - answered));
    }
    await json('POST', `${gateway}/stories/${story.id}/reset`, undefined, token);
    await new Promise((r) => setTimeout(r, 300));
  }
  return latencies.sort((a, b) => a - b);
}

export async function run(log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)) {
  // Every client comes from 127.0.0.1: the cap on streams per address is raised for them.
  const system = benchSystem({ env: { LIVE_STREAMS_PER_ADDRESS: String(CLIENTS * 2) } });
  const extras: Array<{ stop(): Promise<void> }> = [];
  let clients: FanoutClient[] = [];
  try {
    const gateway = await system.start();
    const sessions = await startReplica(
      join(repoRoot, 'services/sessions/src/main.ts'),
      environmentOf(pidOf(system, 'sessions')),
      NODE_OPTIONS.sessions,
    );
    extras.push(sessions);
    const gateway2 = await startReplica(join(repoRoot, 'gateway/src/main.ts'), {
      ...environmentOf(pidOf(system, 'gateway')),
      SESSIONS_URL: sessions.url,
    });
    extras.push(gateway2);
    const replicas = [pidOf(system, 'sessions'), sessions.pid];

    const { token } = await json('POST', `${gateway}/auth/register`, {
      email: `fanout-${Date.now()}@example.test`,
      password: 'bench-password',
      name: 'Fan-out',
    });
    const { session } = await json('POST', `${gateway}/sessions`, { name: 'Big room' }, token);
    const idle = replicas.map(residentMb);
    clients = await openClients([gateway, gateway2.url], session.code);
    const rss = replicas.map(() => 0);
    const sample = () => replicas.forEach((pid, i) => (rss[i] = Math.max(rss[i]!, residentMb(pid))));
    const sampling = setInterval(sample, 250);
    const latencies = await playRounds(gateway, token, session.code, clients);
    sample();
    clearInterval(sampling);

    const most = Math.max(...clients.map((c) => c.events));
    const missed =
      clients.reduce((sum, c) => sum + (most - c.events), 0) +
      clients.reduce((sum, c) => sum + Math.max(0, ROUNDS - c.revealedAt.length), 0) +
      clients.filter((c) => c.ended).length;
    const p99 = quantile(latencies, 0.99);
    const meets = {
      latency: latencies.length === CLIENTS * ROUNDS && p99 < P99_TARGET_MS,
      memory: rss.every((mb) => mb < RSS_TARGET_MB),
      missed: missed === 0,
    };
    log(
      `room fan-out: ${CLIENTS} live room clients in one session, over 2 gateways and 2 sessions replicas, ${ROUNDS} reveals`,
    );
    log(
      `  reveal answer -> story.revealed at each client: p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${(latencies.at(-1) ?? NaN).toFixed(1)} ms (${latencies.length} arrivals); p99 under ${P99_TARGET_MS} ms: ${meets.latency ? 'yes' : 'NO'}`,
    );
    log(
      `  resident memory per sessions replica (peak): ${rss.map((mb, i) => `${mb.toFixed(0)} MB (${idle[i]!.toFixed(0)} MB idle before the clients)`).join(', ')}; under ${RSS_TARGET_MB} MB: ${meets.memory ? 'yes' : 'NO'}`,
    );
    log(`  missed events: ${missed} (${most} events per client); none: ${meets.missed ? 'yes' : 'NO'}`);
    return meets.latency && meets.memory && meets.missed;
  } finally {
    for (const c of clients) c.close();
    for (const extra of extras.reverse()) await extra.stop();
    await system.stop();
  }
}

if (import.meta.main) process.exitCode = (await run()) ? 0 : 1;
