/**
 * `npm run bench`: every benchmark of the platform, one after the other, each in a process of its own
 * (so this runner imports none of the code it measures). A benchmark exits 0 when it meets its
 * targets. Load goes to 127.0.0.1 only; BENCH_SECONDS sets the length of each measurement.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const benchmarks = [
  { name: 'gateway overhead', script: '../../gateway/bench/gateway.bench.ts' },
  { name: 'estimation loop and story changes', script: '../../deploy/bench/estimation.bench.ts' },
  { name: 'a long history: analytics and the owner list', script: '../../deploy/bench/history.bench.ts' },
  { name: "the assistant's built-in engine", script: '../../deploy/bench/assistant.bench.ts' },
  { name: 'imports: CSV and GitHub preview', script: '../../e2e/bench/integrations.bench.ts' },
  { name: 'the web room: first render in Chromium', script: '../../e2e/bench/web-room.bench.ts' },
  { name: 'webhook delivery', script: '../../services/webhooks/bench/webhooks.bench.ts' },
  { name: 'a big room on two replicas', script: '../../deploy/bench/room-fanout.bench.ts' },
];

const failed: string[] = [];
for (const bench of benchmarks) {
  const script = fileURLToPath(new URL(bench.script, import.meta.url));
  const code = await new Promise<number | null>((resolve) => {
    spawn(process.execPath, [script], { stdio: 'inherit' }).once('exit', resolve);
  });
  if (code !== 0) failed.push(bench.name);
  process.stdout.write('\n');
}
process.stdout.write(
  failed.length === 0 ? 'all targets met: yes\n' : `all targets met: no (${failed.join(', ')})\n`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
