import { builtInPreset, newSessionSettings, presetProblems } from './presets.ts';

const NOW = new Date('2030-01-01T12:00:00Z');

describe('the settings of a new session', () => {
  it('takes each setting from the request, else the template, else the workspace, else the product', () => {
    const settings = newSessionSettings(
      { autoReveal: true },
      {
        template: { votingSystem: 'tshirt', autoReveal: false },
        workspace: { votingSystem: 'powers_of_two', recordVoteNames: true },
      },
      NOW,
    );
    expect(settings).toEqual({
      votingSystem: 'tshirt',
      customDeckName: null,
      customDeckValues: null,
      recordVoteNames: true,
      votebyEnabled: false,
      voteByAt: null,
      autoReveal: true,
      requireParticipantToken: false,
    });
  });

  it('sets the deadline vote_by_minutes after now when vote-by is on and no deadline is given', () => {
    const fromWorkspace = newSessionSettings(
      {},
      { workspace: { votebyEnabled: true, voteByMinutes: 15 } },
      NOW,
    );
    expect(fromWorkspace.voteByAt).toEqual(new Date('2030-01-01T12:15:00Z'));
    const templateMinutes = newSessionSettings(
      {},
      { template: { voteByMinutes: 5 }, workspace: { votebyEnabled: true, voteByMinutes: 15 } },
      NOW,
    );
    expect(templateMinutes.voteByAt).toEqual(new Date('2030-01-01T12:05:00Z'));
    const builtIn = newSessionSettings({ votebyEnabled: true }, {}, NOW);
    expect(builtIn.voteByAt).toEqual(new Date(NOW.getTime() + builtInPreset.voteByMinutes * 60_000));
    const given = new Date('2030-01-02T00:00:00Z');
    expect(
      newSessionSettings({ voteByAt: given }, { workspace: { votebyEnabled: true } }, NOW).voteByAt,
    ).toBe(given);
    expect(
      newSessionSettings({ votebyEnabled: false }, { workspace: { votebyEnabled: true } }, NOW).voteByAt,
    ).toBe(null);
  });

  it('refuses a custom deck without cards and an unknown voting system', () => {
    expect(presetProblems({ votingSystem: 'custom' })).toHaveProperty('custom_deck_values');
    expect(presetProblems({ votingSystem: 'custom', customDeckValues: ['S', 'M'] })).toEqual({});
    expect(presetProblems({ votingSystem: 'planets' as never })).toHaveProperty('voting_system');
    expect(presetProblems({})).toEqual({});
  });
});
