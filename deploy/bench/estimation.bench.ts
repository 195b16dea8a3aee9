/**
 * The estimation loop under load, on the whole system as `npm start` runs it (every unit its own
 * process, rate limit raised): votes of 32 clients spread over the participants of one session and
 * the public lookup, both through the gateway; adding, activating and revealing stories (32 owners'
 * clients, a session each); then the machine's baseline: a minimal express service doing one INSERT
 * and one JetStream publish behind a bare http-proxy-middleware gateway, and the same with a second
 * such service that the first calls (the floor under a change two units make together). The votes are
 * measured once more with tracing on (spans exported to a local OTLP sink), to print what it costs.
 * Run alone with `node deploy/bench/estimation.bench.ts`; exits 0 when every target is met.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  BARE_PROXY_SCRIPT,
  HEADER,
  closedLoop,
  formatRow,
  load,
  spawnServer,
  type LatencyResult,
  type LoadResult,
} from '@pp/bench';
import { withDatabaseName, ensureDatabase, dropDatabase } from '@pp/db';
import { startOtlpSink } from './otlp-sink.ts';
import { benchServers, benchSystem, cpuMeter, dropStreams, json, type Metered } from './whole-system.ts';

const BASELINE = fileURLToPath(new URL('./baseline-service.ts', import.meta.url));
/** The stream the baseline services publish on (made by them, dropped at the end). */
const BASELINE_STREAM = 'BENCH_BASELINE';
const PARTICIPANTS = 64;
const CONNECTIONS = 32;

async function register(gateway: string) {
  const { token } = await json('POST', `${gateway}/auth/register`, {
    email: `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
    password: 'bench-password',
    name: 'Bench',
  });
  return token as string;
}

/** A session with participants and an open story, made through the gateway like any client would. */
async function prepareRoom(gateway: string, token: string) {
  const { session } = await json('POST', `${gateway}/sessions`, { name: 'Benchmark room' }, token);
  const ids: number[] = [];
  for (let i = 0; i < PARTICIPANTS; i++) {
    ids.push(
      (await json('POST', `${gateway}/sessions/${session.code}/join`, { name: `Voter ${i}` })).participant.id,
    );
  }
  await json('POST', `${gateway}/sessions/${session.code}/stories`, { title: 'Benchmark story' }, token);
  return { code: session.code as string, ids };
}

/** Votes spread over the room's participants, one body per request. */
function votesIn(room: { ids: number[] }) {
  let n = 0;
  return () =>
    JSON.stringify({ participant_id: room.ids[n++ % room.ids.length], vote: ['3', '5', '8'][n % 3] });
}

/**
 * The votes again on a system with tracing on, every process exporting its spans over OTLP to a
 * local sink that drops them: not a target, what tracing costs the vote path (its CPU per vote is
 * reported with the others').
 */
async function tracedVotes(
  duration: number,
  costs: ReturnType<typeof cpuMeter>['costs'],
): Promise<LoadResult> {
  const sink = await startOtlpSink();
  const system = benchSystem({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } });
  try {
    const gateway = await system.start();
    const room = await prepareRoom(gateway, await register(gateway));
    const url = `${gateway}/sessions/${room.code}/vote`;
    const votes = (name: string, durationSeconds: number) =>
      load({ name, url, connections: CONNECTIONS, durationSeconds, method: 'POST', body: votesIn(room) });
    // Longer than the untraced warm-up: with the instrumentations' loader hook, the modules a process
    // loads on first use go through the hook's thread, a start-up cost the measurement must not take.
    await votes('warm-up', 3);
    const meter = cpuMeter(() => system.processes());
    const result = await meter.metered(() => votes('vote through the gateway, traced', duration));
    costs.push(...meter.costs);
    if (sink.received().exports === 0) throw new Error('tracing on, yet no span reached the sink');
    return result;
  } finally {
    await system.stop();
    await sink.close();
  }
}

/**
 * Adding, activating and revealing stories: each of 32 clients works on a session of its own (a
 * moderator does one thing at a time), with a voter in it. Each of these changes tells the sessions
 * unit the new round before it answers. A reveal is followed by a reset (not measured) so that there
 * is always a story to reveal, with one vote in it.
 */
async function storyChanges(
  gateway: string,
  token: string,
  duration: number,
  metered: Metered,
): Promise<LatencyResult[]> {
  const sessions = async (stories: number) =>
    Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, i) => {
        const { session } = await json('POST', `${gateway}/sessions`, { name: `Changes ${i}` }, token);
        const ids: string[] = [];
        for (let n = 0; n < stories; n++)
          ids.push(
            (await json('POST', `${gateway}/sessions/${session.code}/stories`, { title: `S${n}` }, token))
              .story.id,
          );
        const voter = (await json('POST', `${gateway}/sessions/${session.code}/join`, { name: 'Voter' }))
          .participant.id;
        return { code: session.code as string, ids, voter: voter as number, turn: 0 };
      }),
    );
  const adding = await sessions(0);
  const add = await metered(() =>
    closedLoop('add a story', CONNECTIONS, duration, async (w, time) => {
      const s = adding[w]!;
      await time(() =>
        json('POST', `${gateway}/sessions/${s.code}/stories`, { title: `Story ${s.turn++}` }, token),
      );
    }),
  );
  const activating = await sessions(2);
  const activate = await metered(() =>
    closedLoop('activate a story', CONNECTIONS, duration, async (w, time) => {
      const s = activating[w]!;
      await time(() => json('POST', `${gateway}/stories/${s.ids[++s.turn % 2]}/activate`, undefined, token));
    }),
  );
  const revealing = await sessions(1);
  // Its CPU is the whole step's: a vote, the reveal and the reset.
  const reveal = await metered(() =>
    closedLoop('reveal a story', CONNECTIONS, duration, async (w, time) => {
      const s = revealing[w]!;
      await json('POST', `${gateway}/sessions/${s.code}/vote`, { participant_id: s.voter, vote: '5' });
      await time(() => json('POST', `${gateway}/stories/${s.ids[0]}/reveal`, undefined, token));
      await json('POST', `${gateway}/stories/${s.ids[0]}/reset`, undefined, token);
    }),
  );
  return [add, activate, reveal];
}

export interface EstimationBenchResult {
  vote: LoadResult;
  lookup: LoadResult;
  baseline: LoadResult;
  twoUnits: LoadResult;
  changes: LatencyResult[];
  meetsVote: boolean;
  meetsLookup: boolean;
  meetsChanges: boolean;
}

export async function run(
  options: { durationSeconds?: number; log?: (line: string) => void } = {},
): Promise<EstimationBenchResult> {
  const duration = options.durationSeconds ?? 5;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { databaseUrl: server, natsUrl } = benchServers();
  const system = benchSystem();
  const { metered, costs, report } = cpuMeter(() => system.processes());
  const baselineDb = withDatabaseName(server, 'pp_bench_baseline');
  const children: Array<{ child: ChildProcess }> = [];
  try {
    const gateway = await system.start();
    const token = await register(gateway);
    const room = await prepareRoom(gateway, token);
    // The lookup first: after the votes, the consumers still work through the vote.cast backlog.
    const lookupUrl = `${gateway}/sessions/${room.code}`;
    await load({ name: 'warm-up', url: lookupUrl, connections: 32, durationSeconds: 1 });
    const lookup = await load({
      name: 'public lookup through the gateway',
      url: lookupUrl,
      connections: 32,
      durationSeconds: duration,
    });
    const vote = votesIn(room);
    await load({
      name: 'warm-up',
      url: `${gateway}/sessions/${room.code}/vote`,
      connections: 32,
      durationSeconds: 1,
      method: 'POST',
      body: vote,
    });
    const voteResult = await metered(() =>
      load({
        name: 'vote through the gateway',
        url: `${gateway}/sessions/${room.code}/vote`,
        connections: 32,
        durationSeconds: duration,
        method: 'POST',
        body: vote,
      }),
    );
    const changes = await storyChanges(gateway, token, duration, metered);
    await system.stop();
    const traced = await tracedVotes(duration, costs);

    await dropDatabase(baselineDb);
    await ensureDatabase(baselineDb);
    const service = await spawnServer(BASELINE, ['0', baselineDb, natsUrl]);
    children.push(service);
    const proxy = await spawnServer(BARE_PROXY_SCRIPT, [], { TARGET_URL: service.url });
    children.push(proxy);
    await load({
      name: 'warm-up',
      url: `${proxy.url}/vote`,
      connections: 32,
      durationSeconds: 1,
      method: 'POST',
      body: vote,
    });
    const baselineMeter = cpuMeter(() => [
      { name: 'baseline service', pid: service.child.pid },
      { name: 'bare proxy', pid: proxy.child.pid },
    ]);
    const baseline = await baselineMeter.metered(() =>
      load({
        name: 'baseline: INSERT + publish, bare proxy',
        url: `${proxy.url}/vote`,
        connections: 32,
        durationSeconds: duration,
        method: 'POST',
        body: vote,
      }),
    );
    costs.push(...baselineMeter.costs);

    // The least a story change can cost here: two units that each write and publish, one calling the
    // other, behind the bare proxy (32 connections; one round at a time per connection, as above).
    const second = await spawnServer(BASELINE, ['0', baselineDb, natsUrl]);
    children.push(second);
    const first = await spawnServer(BASELINE, ['0', baselineDb, natsUrl, second.url]);
    children.push(first);
    const firstProxy = await spawnServer(BARE_PROXY_SCRIPT, [], { TARGET_URL: first.url });
    children.push(firstProxy);
    const floorLoad = (name: string, durationSeconds: number) =>
      load({
        name,
        url: `${firstProxy.url}/vote`,
        connections: CONNECTIONS,
        durationSeconds,
        method: 'POST',
        body: vote,
      });
    await floorLoad('warm-up', 1);
    const floorMeter = cpuMeter(() => [
      { name: 'first service', pid: first.child.pid },
      { name: 'second service', pid: second.child.pid },
      { name: 'bare proxy', pid: firstProxy.child.pid },
    ]);
    const twoUnits = await floorMeter.metered(() => floorLoad('floor: two units, one call', duration));
    costs.push(...floorMeter.costs);

    const result: EstimationBenchResult = {
      vote: voteResult,
      lookup,
      baseline,
      twoUnits,
      changes,
      meetsVote: voteResult.rps >= 0.5 * baseline.rps && voteResult.p99 < 50,
      meetsLookup: lookup.rps >= baseline.rps,
      meetsChanges: changes.every((c) => c.p99 < 50 && c.failed === 0),
    };
    log(
      `estimation loop benchmark: 32 connections, ${duration} s each, ${PARTICIPANTS} participants in one session`,
    );
    log(HEADER);
    for (const r of [voteResult, traced, lookup, baseline]) log(formatRow(r));
    const pct = (a: number, b: number) => ((a / b) * 100).toFixed(1);
    log(
      `vote path: ${pct(voteResult.rps, baseline.rps)}% of the baseline's req/s (target >= 50%), p99 ${voteResult.p99} ms (target < 50 ms): ${result.meetsVote ? 'yes' : 'NO'}`,
    );
    log(
      `vote path with tracing on (OTLP to a local sink): ${pct(traced.rps, voteResult.rps)}% of its req/s with tracing off, p99 ${traced.p99} ms (off: ${voteResult.p99} ms)`,
    );
    log(
      `public lookup: ${pct(lookup.rps, baseline.rps)}% of the baseline's req/s (target >= 100%): ${result.meetsLookup ? 'yes' : 'NO'}`,
    );
    log('');
    log(`story changes: ${CONNECTIONS} connections, a session each, ${duration} s each`);
    log(HEADER);
    for (const c of changes) log(formatRow({ ...c, non2xx: c.failed, errors: 0 }));
    log(formatRow(twoUnits));
    log(`story changes: p99 under 50 ms each, none failed: ${result.meetsChanges ? 'yes' : 'NO'}`);
    // Little's law: with every connection always busy, the mean latency is connections / throughput.
    log(
      `  the floor (a minimal change two units make: an INSERT and a publish each, one internal call, no ` +
        `auth, validation or outbox, behind the bare proxy): ${((CONNECTIONS / twoUnits.rps) * 1000).toFixed(0)} ms ` +
        `a round on average, p99 ${twoUnits.p99} ms on this machine`,
    );
    // With every connection always busy, the cores are the queue: a round of each connection cannot
    // take less, on average, than all connections' CPU for one round shared out over the cores.
    const cores = availableParallelism();
    for (const c of changes) {
      const ms = costs.find((x) => x.name === c.name)?.cost.total;
      if (ms)
        log(
          `  ${c.name}: ${ms.toFixed(1)} ms of CPU a round; ${CONNECTIONS} connections on ${cores} cores: ` +
            `a round takes at least ${((CONNECTIONS * ms) / cores).toFixed(0)} ms on average`,
        );
    }
    log('');
    report(
      log,
      'CPU per operation, by process (from /proc; a reveal step is a vote, the reveal and the reset):',
    );
    return result;
  } finally {
    await Promise.all(
      children.map(async ({ child }) => {
        if (child.exitCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }),
    );
    await system.stop();
    await dropDatabase(baselineDb).catch(() => undefined);
    await dropStreams(natsUrl, [BASELINE_STREAM]).catch(() => undefined);
  }
}

if (import.meta.main) {
  const result = await run({ durationSeconds: Number(process.env.BENCH_SECONDS ?? 5) });
  process.exitCode = result.meetsVote && result.meetsLookup && result.meetsChanges ? 0 : 1;
}
