import { inSteps } from './steps.ts';

const after = (ms: number, value?: string, into?: string[]) =>
  new Promise<void>((resolve) =>
    setTimeout(() => {
      if (value) into?.push(value);
      resolve();
    }, ms),
  );

describe('inSteps', () => {
  it('runs the steps in order, each once the one before has ended', async () => {
    const done: string[] = [];
    await inSteps(
      [
        ['slow', () => after(30, 'slow', done)],
        ['quick', () => after(1, 'quick', done)],
        ['synchronous', () => void done.push('synchronous')],
      ],
      { onSlow: () => undefined },
    );
    expect(done).toEqual(['slow', 'quick', 'synchronous']);
  });

  it('names a step still running after slowMs, once, and leaves it to finish', async () => {
    const slow: Array<[string, number]> = [];
    const done: string[] = [];
    await inSteps(
      [
        ['quick', () => void done.push('quick')],
        ['hanging', () => after(120, 'hanging', done)],
      ],
      { slowMs: 40, onSlow: (name, ms) => slow.push([name, ms]) },
    );
    expect(done).toEqual(['quick', 'hanging']);
    expect(slow.map(([name]) => name)).toEqual(['hanging']);
    // Reported once slowMs had passed (a timer may fire a millisecond or two early by the wall clock).
    expect(slow[0]![1]).toBeGreaterThanOrEqual(35);
  });

  it('stops at a failed step, with its error, and reports nothing of it afterwards', async () => {
    const done: string[] = [];
    const slow: string[] = [];
    await expect(
      inSteps(
        [
          ['fails', () => Promise.reject(new Error('broken'))],
          ['never', () => void done.push('never')],
        ],
        { slowMs: 20, onSlow: (name) => slow.push(name) },
      ),
    ).rejects.toThrow('broken');
    await after(80);
    expect({ done, slow }).toEqual({ done: [], slow: [] });
  });
});
