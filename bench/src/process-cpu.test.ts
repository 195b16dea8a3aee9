import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { cpuPerOperation, formatCpu, readCpu } from './process-cpu.ts';

/**
 * A process that prints `ready`, and once told to go (a line on its stdin) spins until it has spent
 * `spinMs` more of CPU (its own CPU time, not the clock's: on a busy machine it gets less than all of
 * a core), prints `done` and waits to be killed. It starts only when told, after the first reading,
 * however late a busy machine lets the test take it.
 */
function child(spinMs: number) {
  const code = `
    console.log('ready');
    process.stdin.once('data', () => {
      const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
      const until = cpu() + ${spinMs};
      while (cpu() < until);
      console.log('done');
    });
    setInterval(() => {}, 1000);`;
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  proc.on('error', () => undefined);
  const lines = createInterface({ input: proc.stdout });
  const said = (word: string) =>
    new Promise<void>((resolve) => lines.on('line', (l) => l === word && resolve()));
  return { proc, ready: said('ready'), done: said('done'), go: () => proc.stdin.write('go\n') };
}

describe('CPU per operation by process', () => {
  it('charges each process what it spent between two readings, per operation, largest first', async () => {
    const busy = child(400);
    const idle = child(0);
    try {
      await Promise.all([busy.ready, idle.ready]);
      const processes = [
        { name: 'busy', pid: busy.proc.pid },
        { name: 'idle', pid: idle.proc.pid },
      ];
      const before = readCpu(processes, []);
      busy.go();
      idle.go();
      await Promise.all([busy.done, idle.done]);
      const cost = cpuPerOperation(before, readCpu(processes, []), 2);

      const of = (name: string) => cost.parts.find((p) => p.name === name)!.ms;
      // 400 ms of spinning over 2 operations; the clock ticks every 10 ms.
      expect(of('busy')).toBeGreaterThan(150);
      expect(of('busy')).toBeLessThan(260);
      expect(of('idle')).toBeLessThan(40);
      // Largest first. The test's own process (the load generator) is measured too, and on a machine
      // busy with other tests it may well spend more than either child: only the children's order counts.
      expect(cost.parts.map((p) => p.name).filter((n) => n !== 'load generator')).toEqual(['busy', 'idle']);
      expect(cost.total).toBeCloseTo(of('busy') + of('idle'), 5);
      expect(formatCpu(cost)).toMatch(/^\d+\.\d ms: busy \d+\.\d/);
    } finally {
      for (const c of [busy, idle]) {
        const exited = once(c.proc, 'exit');
        c.proc.kill();
        await exited;
      }
    }
  });

  it('charges a name what its processes spent between the readings, whatever one that ended had spent before', async () => {
    // Two processes of one name (as the backends of a database): one works before the first reading
    // and ends before the second, the other works in between.
    const before = child(400);
    const between = child(200);
    try {
      await Promise.all([before.ready, between.ready]);
      before.go();
      await before.done;
      const processes = [
        { name: 'worker', pid: before.proc.pid },
        { name: 'worker', pid: between.proc.pid },
      ];
      const first = readCpu(processes, []);
      const ended = once(before.proc, 'exit');
      before.proc.kill();
      await ended;
      between.go();
      await between.done;
      const cost = cpuPerOperation(first, readCpu(processes, []), 1);

      const worker = cost.parts.find((p) => p.name === 'worker')!.ms;
      // What the second spent (200 ms, the clock ticking every 10 ms), not that less the first's 400.
      expect(worker).toBeGreaterThan(150);
      expect(worker).toBeLessThan(300);
    } finally {
      const exited = once(between.proc, 'exit');
      between.proc.kill();
      await exited;
    }
  });
});
