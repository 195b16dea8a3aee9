import { builtInPreset, type PresetSettings } from '../../domain/presets.ts';
import type { VotingSystem } from '../../domain/deck.ts';

/** A preset as the API names its settings (a workspace's defaults, a template's settings). */
export interface PresetInput {
  voting_system?: VotingSystem;
  custom_deck_name?: string | null;
  custom_deck_values?: string[] | null;
  record_vote_names?: boolean;
  voteby_enabled?: boolean;
  vote_by_minutes?: number;
  auto_reveal?: boolean;
  require_participant_token?: boolean;
}

const presetFields: Record<keyof PresetInput, keyof PresetSettings> = {
  voting_system: 'votingSystem',
  custom_deck_name: 'customDeckName',
  custom_deck_values: 'customDeckValues',
  record_vote_names: 'recordVoteNames',
  voteby_enabled: 'votebyEnabled',
  vote_by_minutes: 'voteByMinutes',
  auto_reveal: 'autoReveal',
  require_participant_token: 'requireParticipantToken',
};

/** The settings a body names, as kept. */
export function presetOf(input: PresetInput): Partial<PresetSettings> {
  const preset: Partial<PresetSettings> = {};
  for (const [field, key] of Object.entries(presetFields) as Array<[keyof PresetInput, keyof PresetSettings]>)
    if (input[field] !== undefined) Object.assign(preset, { [key]: input[field] });
  return preset;
}

/** The settings as the API names them: only those kept (a template's), or every one (`complete`: defaults). */
export function presetView(preset: Partial<PresetSettings>, complete = false): PresetInput {
  const shown = complete ? { ...builtInPreset, ...preset } : preset;
  const view: PresetInput = {};
  for (const [field, key] of Object.entries(presetFields) as Array<[keyof PresetInput, keyof PresetSettings]>)
    if (shown[key] !== undefined) Object.assign(view, { [field]: shown[key] });
  return view;
}

/** Problems of a preset's fields, keyed under the body's field (`defaults`, `settings`). */
export function prefixed(problems: Record<string, string[]>, field: string): Record<string, string[]> {
  return Object.fromEntries(Object.entries(problems).map(([key, value]) => [`${field}.${key}`, value]));
}
