/**
 * `npm run bench`: every benchmark of the platform in one run, on 127.0.0.1 only, each bounded in time.
 * Prints requests/s and latency percentiles, and whether each target is met.
 */
import { run as gatewayBench } from '../../../gateway/bench/gateway.bench.ts';
import { run as estimationBench } from './estimation.bench.ts';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const gateway = await gatewayBench({ duration: Math.min(duration, 3) });
process.stdout.write('\n');
const estimation = await estimationBench({ durationSeconds: duration });
const met = gateway.meetsThroughput && gateway.meetsLatency && estimation.meetsVote && estimation.meetsLookup;
process.stdout.write(`\nall targets met: ${met ? 'yes' : 'no'}\n`);
