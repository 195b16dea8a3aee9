import { setTimeout as sleep } from 'node:timers/promises';
import { Turns } from './turns.ts';

const wait = { ms: 5_000, late: () => new Error('still waiting') };

describe('work on one key taking turns', () => {
  let turns: Turns;
  beforeEach(() => (turns = new Turns(wait)));

  it('runs the work on one key one at a time, in the order it came, and other keys alongside', async () => {
    const log: string[] = [];
    const change = (key: string, name: string, ms: number) =>
      turns.run(key, async (waited) => {
        log.push(`${name} starts${waited ? ' after waiting' : ''}`);
        await sleep(ms);
        log.push(`${name} ends`);
        return name;
      });
    const results = await Promise.all([change('s1', 'a', 30), change('s1', 'b', 5), change('s2', 'x', 10)]);
    expect(results).toEqual(['a', 'b', 'x']);
    expect(log).toEqual(['a starts', 'x starts', 'x ends', 'a ends', 'b starts after waiting', 'b ends']);
    await sleep(0);
    expect(turns.keysInLine).toBe(0);
  });

  it('passes the turn on when work fails', async () => {
    const failing = turns.run('s3', async () => {
      await sleep(5);
      throw new Error('refused');
    });
    const next = turns.run('s3', async (waited) => waited);
    await expect(failing).rejects.toThrow('refused');
    await expect(next).resolves.toBe(true);
  });

  it('gives up with the wait’s error after the longest wait, having done nothing, and the line keeps its order', async () => {
    const impatient = new Turns({ ms: 200, late: () => new Error('gave up') });
    const log: string[] = [];
    const slow = impatient.run('s4', async () => {
      await sleep(300);
      log.push('slow');
    });
    let ran = false;
    await expect(impatient.run('s4', async () => void (ran = true))).rejects.toThrow('gave up');
    expect(ran).toBe(false);
    // The last in line gave up: work arriving now still waits for the slow one at work (100 ms more).
    const arriving = impatient.run(
      's4',
      async (waited) => void log.push(`arriving${waited ? ' after waiting' : ''}`),
    );
    await Promise.all([slow, arriving]);
    expect(log).toEqual(['slow', 'arriving after waiting']);
    await sleep(0);
    expect(impatient.keysInLine).toBe(0);
  });

  it('keeps each instance’s lines apart: work through another replica does not wait for this one’s', async () => {
    const other = new Turns(wait);
    let release!: () => void;
    const busy = turns.run('s5', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(other.run('s5', async (waited) => waited)).resolves.toBe(false);
    expect(turns.keysInLine).toBe(1);
    release();
    await busy;
  });
});
