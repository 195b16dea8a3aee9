import { announcement, clock, secondsLeft } from './countdown.ts';

describe('the round countdown', () => {
  it('counts whole seconds left, rounded up, down to zero', () => {
    const c = {
      story_id: 'a',
      ends_at: new Date(10_000).toISOString(),
      seconds: 30,
      at_zero: 'reveal' as const,
    };
    expect(secondsLeft(c, 0)).toBe(10);
    expect(secondsLeft(c, 9_001)).toBe(1);
    expect(secondsLeft(c, 10_000)).toBe(0);
    expect(secondsLeft(c, 12_000)).toBe(0);
    expect(clock(245)).toBe('4:05');
    expect(clock(9)).toBe('0:09');
  });

  it('tells a screen reader a few times, not every second', () => {
    const said = new Set<string>();
    for (let left = 120; left >= 0; left--) said.add(JSON.stringify(announcement(120, left)));
    expect([...said].map((s) => JSON.parse(s))).toEqual([
      { kind: 'start', seconds: 120 },
      { kind: 'left', seconds: 60 },
      { kind: 'left', seconds: 30 },
      { kind: 'left', seconds: 10 },
      { kind: 'zero', seconds: 0 },
    ]);
    expect(announcement(45, 45)).toEqual({ kind: 'start', seconds: 45 });
  });
});
