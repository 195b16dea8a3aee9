import { fixedDecks, type VotingSystem } from './deck.ts';

/** The voting settings of a session (what the workspace defaults and templates will provide). */
export interface SessionSettings {
  votingSystem: VotingSystem;
  customDeckName: string | null;
  customDeckValues: string[] | null;
  recordVoteNames: boolean;
  votebyEnabled: boolean;
  voteByAt: Date | null;
  autoReveal: boolean;
  requireParticipantToken: boolean;
}

/** A session without workspace defaults: the fibonacci deck, nothing else switched on. */
export const builtInDefaults: SessionSettings = {
  votingSystem: 'fibonacci',
  customDeckName: null,
  customDeckValues: null,
  recordVoteNames: false,
  votebyEnabled: false,
  voteByAt: null,
  autoReveal: false,
  requireParticipantToken: false,
};

export type SettingsProblems = Record<string, string[]>;

/**
 * Rules that span fields, checked on the settings a change would leave (field rules are the API
 * schema's). `changed` names the settings the request set; `now` decides what "in the future" means.
 */
export function settingsProblems(
  next: SessionSettings,
  changed: ReadonlySet<keyof SessionSettings>,
  now: Date,
): SettingsProblems {
  const problems: SettingsProblems = {};
  if (next.votingSystem === 'custom' && !next.customDeckValues?.length) {
    problems.custom_deck_values = ['is required when voting_system is custom'];
  }
  if (!(next.votingSystem in fixedDecks) && next.votingSystem !== 'custom') {
    problems.voting_system = ['is not a known voting system'];
  }
  if (next.votebyEnabled && !next.voteByAt) {
    problems.vote_by_at = ['is required when voteby_enabled is true'];
  } else if (
    next.voteByAt &&
    (changed.has('voteByAt') || (changed.has('votebyEnabled') && next.votebyEnabled)) &&
    next.voteByAt.getTime() <= now.getTime()
  ) {
    problems.vote_by_at = ['must be in the future'];
  }
  return problems;
}
