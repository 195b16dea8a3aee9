import { jest } from '@jest/globals';
import { SessionTurns, TURN_WAIT_MS } from './session-turns.ts';

describe('changes of a session taking turns', () => {
  afterEach(() => jest.useRealTimers());

  it('gives up with 503 service_unavailable after TURN_WAIT_MS in the line, having done nothing', async () => {
    jest.useFakeTimers();
    const turns = new SessionTurns();
    let release!: () => void;
    const busy = turns.run('s1', () => new Promise<void>((resolve) => (release = resolve)));
    let ran = false;
    const waiting = expect(turns.run('s1', async () => void (ran = true))).rejects.toMatchObject({
      status: 503,
      code: 'service_unavailable',
    });
    await jest.advanceTimersByTimeAsync(TURN_WAIT_MS - 1);
    expect(ran).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await waiting;
    // Another session's change never waited in that line.
    await expect(turns.run('s2', async (waited) => waited)).resolves.toBe(false);
    release();
    await busy;
    expect(ran).toBe(false);
  });
});
