/**
 * The estimation loop under load, on the whole system as `npm start` runs it (every unit its own
 * process, rate limit raised): votes of 32 clients spread over the participants of one session and
 * the public lookup, both through the gateway; then the machine's baseline: a minimal express
 * service doing one INSERT and one JetStream publish behind a bare http-proxy-middleware gateway.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withDatabaseName, ensureDatabase, dropDatabase } from '@pp/db';
import { createLauncherLog } from '../launcher/log.ts';
import { createSystem } from '../launcher/system.ts';
import { repoRoot } from '../launcher/units.ts';
import { HEADER, formatRow, load, type LoadResult } from './load.ts';
import { spawnServer } from './servers.ts';

const BASELINE = fileURLToPath(new URL('./baseline-service.ts', import.meta.url));
const BARE_PROXY = join(repoRoot, 'gateway', 'bench', 'bench-servers.ts');
const PARTICIPANTS = 64;

async function json(method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

/** A session with participants and an open story, made through the gateway like any client would. */
async function prepareRoom(gateway: string) {
  const email = `bench-${Date.now()}@example.test`;
  const { token } = await json('POST', `${gateway}/auth/register`, {
    email,
    password: 'bench-password',
    name: 'Bench',
  });
  const { session } = await json('POST', `${gateway}/sessions`, { name: 'Benchmark room' }, token);
  const ids: number[] = [];
  for (let i = 0; i < PARTICIPANTS; i++) {
    ids.push(
      (await json('POST', `${gateway}/sessions/${session.code}/join`, { name: `Voter ${i}` })).participant.id,
    );
  }
  await json('POST', `${gateway}/sessions/${session.code}/stories`, { title: 'Benchmark story' }, token);
  // The sessions unit learns of the story through an event: wait until it is the current story.
  for (let i = 0; i < 100; i++) {
    const { session: s } = await json('GET', `${gateway}/sessions/${session.code}`);
    if (s.current_story) return { code: session.code as string, ids };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the story never became current');
}

export interface EstimationBenchResult {
  vote: LoadResult;
  lookup: LoadResult;
  baseline: LoadResult;
  meetsVote: boolean;
  meetsLookup: boolean;
}

export async function run(
  options: { durationSeconds?: number; log?: (line: string) => void } = {},
): Promise<EstimationBenchResult> {
  const duration = options.durationSeconds ?? 5;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-bench-'));
  const system = createSystem({
    env: {
      ...process.env,
      DATABASE_URL: server,
      NATS_URL: natsUrl,
      PORT: '',
      RATE_LIMIT_PER_MINUTE: '100000000',
      LOG_LEVEL: 'warn',
    },
    dataDir,
    log: createLauncherLog(['bench']),
    readyTimeoutMs: 90_000,
  });
  const baselineDb = withDatabaseName(server, 'pp_bench_baseline');
  const children: Array<{ child: ChildProcess }> = [];
  try {
    const gateway = await system.start();
    const room = await prepareRoom(gateway);
    // The lookup first: after the votes, the consumers still work through the vote.cast backlog.
    const lookupUrl = `${gateway}/sessions/${room.code}`;
    await load({ name: 'warm-up', url: lookupUrl, connections: 32, durationSeconds: 1 });
    const lookup = await load({
      name: 'public lookup through the gateway',
      url: lookupUrl,
      connections: 32,
      durationSeconds: duration,
    });
    let n = 0;
    const vote = () =>
      JSON.stringify({ participant_id: room.ids[n++ % room.ids.length], vote: ['3', '5', '8'][n % 3] });
    await load({
      name: 'warm-up',
      url: `${gateway}/sessions/${room.code}/vote`,
      connections: 32,
      durationSeconds: 1,
      method: 'POST',
      body: vote,
    });
    const voteResult = await load({
      name: 'vote through the gateway',
      url: `${gateway}/sessions/${room.code}/vote`,
      connections: 32,
      durationSeconds: duration,
      method: 'POST',
      body: vote,
    });
    await system.stop();

    await dropDatabase(baselineDb);
    await ensureDatabase(baselineDb);
    const service = await spawnServer(BASELINE, ['0', baselineDb, natsUrl]);
    children.push(service);
    const proxy = await spawnServer(BARE_PROXY, ['bare'], { TARGET_URL: service.url });
    children.push(proxy);
    await load({
      name: 'warm-up',
      url: `${proxy.url}/vote`,
      connections: 32,
      durationSeconds: 1,
      method: 'POST',
      body: vote,
    });
    const baseline = await load({
      name: 'baseline: INSERT + publish, bare proxy',
      url: `${proxy.url}/vote`,
      connections: 32,
      durationSeconds: duration,
      method: 'POST',
      body: vote,
    });

    const result: EstimationBenchResult = {
      vote: voteResult,
      lookup,
      baseline,
      meetsVote: voteResult.rps >= 0.5 * baseline.rps && voteResult.p99 < 50,
      meetsLookup: lookup.rps >= baseline.rps,
    };
    log(
      `estimation loop benchmark: 32 connections, ${duration} s each, ${PARTICIPANTS} participants in one session`,
    );
    log(HEADER);
    for (const r of [voteResult, lookup, baseline]) log(formatRow(r));
    const pct = (a: number, b: number) => ((a / b) * 100).toFixed(1);
    log(
      `vote path: ${pct(voteResult.rps, baseline.rps)}% of the baseline's req/s (target >= 50%), p99 ${voteResult.p99} ms (target < 50 ms): ${result.meetsVote ? 'yes' : 'NO'}`,
    );
    log(
      `public lookup: ${pct(lookup.rps, baseline.rps)}% of the baseline's req/s (target >= 100%): ${result.meetsLookup ? 'yes' : 'NO'}`,
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
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  await run();
}
