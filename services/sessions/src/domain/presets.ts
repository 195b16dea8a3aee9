import { fixedDecks } from './deck.ts';
import { builtInDefaults, type SessionSettings, type SettingsProblems } from './session-settings.ts';

/**
 * What a workspace's defaults and a template's settings hold: a session's settings, with the
 * vote-by deadline as a time from the session's creation (a date would be past by the next sprint).
 */
export interface PresetSettings extends Omit<SessionSettings, 'voteByAt'> {
  /** With voteby_enabled: the deadline of a new session is this many minutes after its creation. */
  voteByMinutes: number;
}

export const MAX_VOTE_BY_MINUTES = 30 * 24 * 60;

/** A template holds up to this many stories (what the stories service adds in one batch). */
export const MAX_TEMPLATE_STORIES = 100;

/** The product's defaults: what neither the request, the template nor the workspace names. */
export const builtInPreset: PresetSettings = {
  votingSystem: builtInDefaults.votingSystem,
  customDeckName: builtInDefaults.customDeckName,
  customDeckValues: builtInDefaults.customDeckValues,
  recordVoteNames: builtInDefaults.recordVoteNames,
  votebyEnabled: builtInDefaults.votebyEnabled,
  voteByMinutes: 60,
  autoReveal: builtInDefaults.autoReveal,
  requireParticipantToken: builtInDefaults.requireParticipantToken,
};

/** Rules across fields of a preset as it would be kept (field rules are the API schema's). */
export function presetProblems(preset: Partial<PresetSettings>): SettingsProblems {
  const problems: SettingsProblems = {};
  if (preset.votingSystem === 'custom' && !preset.customDeckValues?.length) {
    problems.custom_deck_values = ['is required when voting_system is custom'];
  }
  if (
    preset.votingSystem !== undefined &&
    preset.votingSystem !== 'custom' &&
    !(preset.votingSystem in fixedDecks)
  ) {
    problems.voting_system = ['is not a known voting system'];
  }
  return problems;
}

/**
 * The settings of a new session, setting by setting: what the request names, else the template's,
 * else the workspace's defaults, else the product's. A session whose deadline is on but not given
 * gets one `voteByMinutes` after `now`.
 */
export function newSessionSettings(
  given: Partial<SessionSettings>,
  presets: { template?: Partial<PresetSettings>; workspace?: Partial<PresetSettings> },
  now: Date,
): SessionSettings {
  const { voteByMinutes, ...preset } = { ...builtInPreset, ...presets.workspace, ...presets.template };
  const settings: SessionSettings = { ...preset, voteByAt: null, ...given };
  if (settings.votebyEnabled && given.voteByAt === undefined)
    settings.voteByAt = new Date(now.getTime() + voteByMinutes * 60_000);
  return settings;
}
