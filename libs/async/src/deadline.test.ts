import { atMost, within } from './deadline.ts';

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('deadlines', () => {
  it('atMost gives what the work gives in time, else the fallback', async () => {
    expect(await atMost(200, after(5, 'work'), 'fallback')).toBe('work');
    expect(await atMost(5, after(200, 'work'), 'fallback')).toBe('fallback');
  });

  it('within gives what the work gives in time, else rejects with the late error; a failing work rejects as it is', async () => {
    expect(await within(200, after(5, 'work'), () => new Error('late'))).toBe('work');
    await expect(within(5, after(200, 'work'), () => new Error('late'))).rejects.toThrow('late');
    await expect(within(200, Promise.reject(new Error('failed')), () => new Error('late'))).rejects.toThrow(
      'failed',
    );
  });

  it('leaves no timer behind once the work is done', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await atMost(60_000, Promise.resolve(1), 0);
    await within(60_000, Promise.resolve(1), () => new Error('late'));
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
  });
});
