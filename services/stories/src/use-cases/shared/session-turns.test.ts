import { setTimeout as sleep } from 'node:timers/promises';
import { SessionTurns } from './session-turns.ts';

describe('changes of a session taking turns', () => {
  let turns: SessionTurns;
  beforeEach(() => (turns = new SessionTurns()));

  it('runs the changes of one session one at a time, in the order they came, and others alongside', async () => {
    const log: string[] = [];
    const change = (session: string, name: string, ms: number) =>
      turns.run(session, async (waited) => {
        log.push(`${name} starts${waited ? ' after waiting' : ''}`);
        await sleep(ms);
        log.push(`${name} ends`);
        return name;
      });
    const results = await Promise.all([change('s1', 'a', 30), change('s1', 'b', 5), change('s2', 'x', 10)]);
    expect(results).toEqual(['a', 'b', 'x']);
    expect(log).toEqual(['a starts', 'x starts', 'x ends', 'a ends', 'b starts after waiting', 'b ends']);
    await sleep(0);
    expect(turns.sessionsInLine).toBe(0);
  });

  it('passes the turn on when a change fails', async () => {
    const failing = turns.run('s3', async () => {
      await sleep(5);
      throw new Error('refused');
    });
    const next = turns.run('s3', async (waited) => waited);
    await expect(failing).rejects.toThrow('refused');
    await expect(next).resolves.toBe(true);
  });

  it('gives up with 503 after the longest wait, having done nothing, and the line keeps its order', async () => {
    const log: string[] = [];
    const slow = turns.run('s4', async () => {
      await sleep(80);
      log.push('slow');
    });
    let ran = false;
    const impatient = turns.run('s4', async () => void (ran = true), 20);
    await expect(impatient).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(ran).toBe(false);
    // The last in line gave up: a change arriving now still waits for the slow one at work.
    const arriving = turns.run(
      's4',
      async (waited) => void log.push(`arriving${waited ? ' after waiting' : ''}`),
    );
    await Promise.all([slow, arriving]);
    expect(log).toEqual(['slow', 'arriving after waiting']);
    await sleep(0);
    expect(turns.sessionsInLine).toBe(0);
  });

  it('keeps the lines of each replica apart: a change through another replica does not wait for this one', async () => {
    const other = new SessionTurns();
    let release!: () => void;
    const busy = turns.run('s5', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(other.run('s5', async (waited) => waited)).resolves.toBe(false);
    expect(turns.sessionsInLine).toBe(1);
    release();
    await busy;
  });
});
