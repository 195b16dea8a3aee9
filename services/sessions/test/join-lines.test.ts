import { jest } from '@jest/globals';
import { JOIN_WAIT_MS, joinLines } from '../src/use-cases/join-session.use-case.ts';

describe('the lines joins of a room take turns in', () => {
  afterEach(() => jest.useRealTimers());

  it('gives a join up with 503 service_unavailable after JOIN_WAIT_MS in its room’s line, having done nothing', async () => {
    jest.useFakeTimers();
    const lines = joinLines();
    let release!: () => void;
    const joining = lines.run('room-1', () => new Promise<void>((resolve) => (release = resolve)));
    let joined = false;
    const waiting = expect(lines.run('room-1', async () => void (joined = true))).rejects.toMatchObject({
      status: 503,
      code: 'service_unavailable',
      message: 'Many are joining this room at once, try again shortly',
    });
    // Another room's join does not wait in that line.
    await expect(lines.run('room-2', async (waited) => waited)).resolves.toBe(false);
    await jest.advanceTimersByTimeAsync(JOIN_WAIT_MS - 1);
    expect(joined).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await waiting;
    release();
    await joining;
    expect(joined).toBe(false);
  });
});
