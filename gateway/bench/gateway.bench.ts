/**
 * Gateway overhead: a public GET straight to the service, through a bare http-proxy-middleware
 * gateway, and through the real gateway (anonymous, and with a cached bearer token), same run.
 * Each server runs in its own process on 127.0.0.1; every measurement lasts a few seconds.
 * Run alone with `node gateway/bench/gateway.bench.ts`, or call `run()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SERVERS = fileURLToPath(new URL('./bench-servers.ts', import.meta.url));
const TOKEN = `pp_api_${'b'.repeat(43)}`;

export interface TargetResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Sequential requests, one at a time (ms, microsecond precision). */
  unloadedP50: number;
  unloadedP99: number;
}

export interface BenchResult {
  targets: TargetResult[];
  throughputRatio: number;
  addedP50VsBareMs: number;
  addedP50VsServiceMs: number;
  meetsThroughput: boolean;
  meetsLatency: boolean;
}

async function startServer(
  kind: string,
  env: Record<string, string>,
): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVERS, kind], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${kind} exited with ${code}`)));
  });
  return { port: (JSON.parse(line) as { port: number }).port, child };
}

function load(url: string, connections: number, duration: number, headers: Record<string, string>) {
  return autocannon({ url, connections, duration, headers });
}

async function sequentialLatency(url: string, headers: Record<string, string>, count: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    await new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  agent.destroy();
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

export async function run(
  options: { duration?: number; connections?: number; rounds?: number; log?: (line: string) => void } = {},
): Promise<BenchResult> {
  const duration = options.duration ?? 3;
  const rounds = options.rounds ?? 3;
  const connections = options.connections ?? 32;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const children: ChildProcess[] = [];
  try {
    const service = await startServer('service', {});
    children.push(service.child);
    const target = `http://127.0.0.1:${service.port}`;
    const bare = await startServer('bare', { TARGET_URL: target });
    const gateway = await startServer('gateway', { TARGET_URL: target, BENCH_TOKEN: TOKEN });
    children.push(bare.child, gateway.child);

    const path = '/sessions/BENCH1';
    const cases: Array<[string, string, Record<string, string>]> = [
      ['service (direct)', `${target}${path}`, {}],
      ['bare proxy', `http://127.0.0.1:${bare.port}${path}`, {}],
      ['gateway', `http://127.0.0.1:${gateway.port}${path}`, {}],
      ['gateway + token', `http://127.0.0.1:${gateway.port}/sessions`, { authorization: `Bearer ${TOKEN}` }],
    ];
    // Rounds interleave the targets, so a passing load on a shared machine hits them alike; medians are kept.
    const runs = new Map<string, autocannon.Result[]>();
    for (const [name, url, headers] of cases) await load(url, connections, 1, headers); // warm-up: JIT, keep-alive pools
    for (let round = 0; round < rounds; round++) {
      for (const [name, url, headers] of cases) {
        const loaded = await load(url, connections, duration, headers);
        if (loaded.non2xx > 0 || loaded.errors > 0)
          throw new Error(`${name}: ${loaded.non2xx} non-2xx, ${loaded.errors} errors`);
        runs.set(name, [...(runs.get(name) ?? []), loaded]);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const targets: TargetResult[] = [];
    for (const [name, url, headers] of cases) {
      const results = runs.get(name)!;
      const idle = await sequentialLatency(url, headers, 2000);
      targets.push({
        name,
        rps: median(results.map((r) => r.requests.average)),
        p50: median(results.map((r) => r.latency.p50)),
        p99: median(results.map((r) => r.latency.p99)),
        unloadedP50: idle.p50,
        unloadedP99: idle.p99,
      });
    }

    const byName = (n: string) => targets.find((t) => t.name === n)!;
    const real = byName('gateway');
    const result: BenchResult = {
      targets,
      throughputRatio: real.rps / byName('bare proxy').rps,
      addedP50VsBareMs: real.unloadedP50 - byName('bare proxy').unloadedP50,
      addedP50VsServiceMs: real.unloadedP50 - byName('service (direct)').unloadedP50,
      meetsThroughput: false,
      meetsLatency: false,
    };
    result.meetsThroughput = result.throughputRatio >= 0.8;
    result.meetsLatency = result.addedP50VsBareMs < 0.5;

    log(
      `gateway benchmark: ${connections} connections x ${duration} s per target; unloaded = 2000 sequential requests`,
    );
    log('target             req/s    p50 ms  p99 ms  | unloaded p50 ms  p99 ms');
    for (const t of targets) {
      log(
        `${t.name.padEnd(17)} ${t.rps.toFixed(0).padStart(7)}  ${String(t.p50).padStart(6)}  ${String(t.p99).padStart(6)}  | ${t.unloadedP50.toFixed(3).padStart(15)}  ${t.unloadedP99.toFixed(3).padStart(6)}`,
      );
    }
    log(
      `gateway keeps ${(result.throughputRatio * 100).toFixed(1)}% of the bare proxy's throughput (target >= 80%): ${result.meetsThroughput ? 'yes' : 'NO'}`,
    );
    log(
      `gateway adds ${result.addedP50VsBareMs.toFixed(3)} ms at p50 unloaded over the bare proxy (target < 0.5 ms): ${result.meetsLatency ? 'yes' : 'NO'}; ${result.addedP50VsServiceMs.toFixed(3)} ms over the service itself`,
    );
    return result;
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}

if (import.meta.main) {
  await run();
}
