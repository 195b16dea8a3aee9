import { builtInDefaults, settingsProblems, type SessionSettings } from './session-settings.ts';
import { deckOf } from './deck.ts';

const NOW = new Date('2030-01-01T12:00:00Z');
const changed = (...keys: Array<keyof SessionSettings>) => new Set(keys);

describe('session settings', () => {
  it('accepts the built-in defaults: the fibonacci deck of the spec', () => {
    expect(settingsProblems(builtInDefaults, changed(), NOW)).toEqual({});
    expect(deckOf(builtInDefaults.votingSystem, null)).toEqual([
      '0',
      '0.5',
      '1',
      '2',
      '3',
      '5',
      '8',
      '13',
      '20',
      '40',
      '100',
      '?',
      'coffee',
    ]);
  });

  it('needs cards for a custom deck', () => {
    const custom = { ...builtInDefaults, votingSystem: 'custom' as const };
    expect(settingsProblems(custom, changed('votingSystem'), NOW)).toHaveProperty('custom_deck_values');
    expect(
      settingsProblems({ ...custom, customDeckValues: ['a', 'b'] }, changed('votingSystem'), NOW),
    ).toEqual({});
    expect(deckOf('custom', ['a', 'b'])).toEqual(['a', 'b']);
  });

  it('needs a deadline in the future when one is set or switched on', () => {
    const past = new Date(NOW.getTime() - 1);
    const future = new Date(NOW.getTime() + 1);
    const on = { ...builtInDefaults, votebyEnabled: true };
    expect(settingsProblems({ ...on, voteByAt: null }, changed('votebyEnabled'), NOW)).toEqual({
      vote_by_at: ['is required when voteby_enabled is true'],
    });
    expect(settingsProblems({ ...on, voteByAt: past }, changed('voteByAt'), NOW)).toEqual({
      vote_by_at: ['must be in the future'],
    });
    expect(settingsProblems({ ...on, voteByAt: past }, changed('votebyEnabled'), NOW)).toHaveProperty(
      'vote_by_at',
    );
    expect(settingsProblems({ ...on, voteByAt: future }, changed('voteByAt'), NOW)).toEqual({});
    // A deadline that has passed does not block changing something else.
    expect(settingsProblems({ ...on, voteByAt: past }, changed('autoReveal'), NOW)).toEqual({});
  });
});
