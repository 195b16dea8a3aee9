/**
 * Gateway overhead: a public GET straight to the service, through a bare http-proxy-middleware
 * gateway, and through the real gateway (anonymous, and with a cached bearer token), same run.
 * Every case asks the same route (`GET /sessions/{code}`); the token case is held to the bare proxy
 * sent the same request (the same Authorization header), so like is compared with like. An answer
 * other than 2xx, an error or a timeout fails the run: a target is never measured on failures.
 * Each server runs in its own process on 127.0.0.1; every measurement lasts a few seconds.
 * Run alone with `node gateway/bench/gateway.bench.ts`, or call `run()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BARE_PROXY_SCRIPT } from '@pp/bench';

const SERVERS = fileURLToPath(new URL('./bench-servers.ts', import.meta.url));
const TOKEN = `pp_api_${'b'.repeat(43)}`;

export interface TargetResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** CPU time the proxying process spent per request under load (µs): the proxy's cost, whatever else runs on the machine. */
  cpuPerRequestUs: number;
  /** Sequential requests, one at a time (ms, microsecond precision). */
  unloadedP50: number;
  unloadedP99: number;
}

export interface BenchResult {
  targets: TargetResult[];
  throughputRatio: number;
  /** The same with a (cached) bearer token: the target holds for both. */
  tokenThroughputRatio: number;
  /** Bare proxy CPU per request / gateway CPU per request: the throughput ratio on dedicated cores. */
  cpuRatio: number;
  /** The same with the token. */
  tokenCpuRatio: number;
  addedP50VsBareMs: number;
  addedP50VsServiceMs: number;
  meetsThroughput: boolean;
  /** CPU per request at least 80 % of the bare proxy's efficiency, anonymous and with the token. */
  meetsCpu: boolean;
  meetsLatency: boolean;
}

async function startServer(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} ${args.join(' ')} exited with ${code}`)));
  });
  return { port: (JSON.parse(line) as { port: number }).port, child };
}

function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (usage) =>
      resolve((usage as NodeJS.CpuUsage).user + (usage as NodeJS.CpuUsage).system),
    );
    child.send('cpu');
  });
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
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) reject(new Error(`${url}: answered ${status}`));
          else res.on('end', resolve);
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
    const service = await startServer(SERVERS, ['service'], {});
    children.push(service.child);
    const target = `http://127.0.0.1:${service.port}`;
    const bare = await startServer(BARE_PROXY_SCRIPT, [], { TARGET_URL: target });
    const gateway = await startServer(SERVERS, ['gateway'], { TARGET_URL: target, BENCH_TOKEN: TOKEN });
    children.push(bare.child, gateway.child);

    // One route for every case: a public read, which the gateway answers anonymously or, with the
    // token, for its caller (checked, signed for the unit, counted against the token).
    const path = '/sessions/BENCH1';
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const cases: Array<{ name: string; url: string; headers: Record<string, string>; proc: ChildProcess }> = [
      { name: 'service (direct)', url: `${target}${path}`, headers: {}, proc: service.child },
      { name: 'bare proxy', url: `http://127.0.0.1:${bare.port}${path}`, headers: {}, proc: bare.child },
      { name: 'gateway', url: `http://127.0.0.1:${gateway.port}${path}`, headers: {}, proc: gateway.child },
      {
        name: 'bare proxy + token',
        url: `http://127.0.0.1:${bare.port}${path}`,
        headers: bearer,
        proc: bare.child,
      },
      {
        name: 'gateway + token',
        url: `http://127.0.0.1:${gateway.port}${path}`,
        headers: bearer,
        proc: gateway.child,
      },
    ];
    // Rounds interleave the targets, so a passing load on a shared machine hits them alike; medians are kept.
    const rps = new Map<string, number[]>();
    const p50 = new Map<string, number[]>();
    const p99 = new Map<string, number[]>();
    const cpu = new Map<string, number[]>();
    const push = (m: Map<string, number[]>, k: string, v: number) => m.set(k, [...(m.get(k) ?? []), v]);
    for (const c of cases) await load(c.url, connections, 1, c.headers); // warm-up: JIT, keep-alive pools
    // Each round's gateway figures are held to the bare proxy's of the same round (the machine's speed
    // drifts between rounds more than within one), and every other round runs the targets in reverse
    // order, so neither side is always measured first.
    for (let round = 0; round < rounds; round++) {
      for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
        const cpuBefore = await cpuOf(c.proc);
        const loaded = await load(c.url, connections, duration, c.headers);
        const cpuUsed = (await cpuOf(c.proc)) - cpuBefore;
        // A failed answer is a failure of the target, never a request served: autocannon counts non-2xx
        // answers among its requests, and its errors (timeouts among them) not at all.
        if (loaded.non2xx > 0 || loaded.errors > 0 || loaded.timeouts > 0)
          throw new Error(
            `${c.name}: ${loaded.non2xx} non-2xx, ${loaded.errors} errors, ${loaded.timeouts} timeouts`,
          );
        push(rps, c.name, loaded.requests.average);
        push(p50, c.name, loaded.latency.p50);
        push(p99, c.name, loaded.latency.p99);
        push(cpu, c.name, cpuUsed / loaded.requests.total);
      }
    }
    // The median of the rounds (of an even number of them, the mean of the middle two).
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    };
    /** The median of each round's ratio of a target to its yardstick (the bare proxy sent the same request). */
    const pairedRatio = (name: string, yardstick: string, of: Map<string, number[]>, inverse = false) =>
      median(
        of.get(name)!.map((v, i) => {
          const bare = of.get(yardstick)![i]!;
          return inverse ? bare / v : v / bare;
        }),
      );
    const targets: TargetResult[] = [];
    for (const c of cases) {
      const idle = await sequentialLatency(c.url, c.headers, 2000);
      targets.push({
        name: c.name,
        rps: median(rps.get(c.name)!),
        p50: median(p50.get(c.name)!),
        p99: median(p99.get(c.name)!),
        cpuPerRequestUs: median(cpu.get(c.name)!),
        unloadedP50: idle.p50,
        unloadedP99: idle.p99,
      });
    }

    const byName = (n: string) => targets.find((t) => t.name === n)!;
    const real = byName('gateway');
    const withToken = byName('gateway + token');
    const barePx = byName('bare proxy');
    const result: BenchResult = {
      targets,
      throughputRatio: pairedRatio(real.name, 'bare proxy', rps),
      tokenThroughputRatio: pairedRatio(withToken.name, 'bare proxy + token', rps),
      cpuRatio: pairedRatio(real.name, 'bare proxy', cpu, true),
      tokenCpuRatio: pairedRatio(withToken.name, 'bare proxy + token', cpu, true),
      addedP50VsBareMs: real.unloadedP50 - barePx.unloadedP50,
      addedP50VsServiceMs: real.unloadedP50 - byName('service (direct)').unloadedP50,
      meetsThroughput: false,
      meetsCpu: false,
      meetsLatency: false,
    };
    result.meetsThroughput = result.throughputRatio >= 0.8 && result.tokenThroughputRatio >= 0.8;
    result.meetsCpu = result.cpuRatio >= 0.8 && result.tokenCpuRatio >= 0.8;
    result.meetsLatency = result.addedP50VsBareMs < 0.5;

    const f = (n: number, d = 0) => n.toFixed(d);
    log(
      `gateway benchmark: ${connections} connections, ${rounds} interleaved rounds of ${duration} s per target (medians; ratios: the median of each round's ratio)`,
    );
    log('target              req/s  p50 ms  p99 ms  CPU µs/req | unloaded p50 ms  p99 ms');
    for (const t of targets) {
      log(
        `${t.name.padEnd(18)} ${f(t.rps).padStart(6)}  ${String(t.p50).padStart(6)}  ${String(t.p99).padStart(6)}  ${f(t.cpuPerRequestUs).padStart(10)} | ${f(t.unloadedP50, 3).padStart(15)}  ${f(t.unloadedP99, 3).padStart(6)}`,
      );
    }
    log(
      `gateway keeps ${f(result.throughputRatio * 100, 1)}% of the bare proxy's req/s, ${f(result.tokenThroughputRatio * 100, 1)}% with a token (target >= 80% each): ${result.meetsThroughput ? 'yes' : 'NO'}`,
    );
    log(
      `  by CPU per request (what req/s becomes on dedicated cores): ${f(result.cpuRatio * 100, 1)}%, ${f(result.tokenCpuRatio * 100, 1)}% with a token (target >= 80% each): ${result.meetsCpu ? 'yes' : 'NO'}`,
    );
    log(
      `gateway adds ${f(result.addedP50VsBareMs, 3)} ms at p50 unloaded over the bare proxy (target < 0.5 ms): ${result.meetsLatency ? 'yes' : 'NO'}; ${f(result.addedP50VsServiceMs, 3)} ms over the service itself`,
    );
    return result;
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}

if (import.meta.main) {
  // Five interleaved rounds per target (the medians of five move less with the machine's other load
  // than those of three): a round of BENCH_SECONDS, at most 3 s.
  const result = await run({ duration: Math.min(Number(process.env.BENCH_SECONDS ?? 3), 3), rounds: 5 });
  process.exitCode = result.meetsThroughput && result.meetsCpu && result.meetsLatency ? 0 : 1;
}
