import { readSettings } from './settings.ts';

describe('fault run options', () => {
  it('runs the scaled-out layout by default, the plain one with --plain, shorter with --short', () => {
    expect(readSettings([])).toMatchObject({ layout: 'cluster', short: false, rounds: 2 });
    expect(readSettings(['--plain', '--short'])).toMatchObject({ layout: 'plain', short: true, rounds: 1 });
    expect(readSettings(['--seconds', '90']).trafficMs).toBe(90_000);
  });

  it('keeps each request waiting longer than the gateway waits for a unit', () => {
    const s = readSettings(['--short']);
    expect(s.clientTimeoutMs).toBeGreaterThan(s.upstreamTimeoutMs);
  });

  it('refuses an unknown option or a time that is not a whole number of seconds', () => {
    expect(() => readSettings(['--fast'])).toThrow('unknown option --fast');
    expect(() => readSettings(['--seconds', '0'])).toThrow('--seconds');
    expect(() => readSettings(['--seconds'])).toThrow('--seconds');
  });
});
