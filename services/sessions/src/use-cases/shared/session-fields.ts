import type { Session } from '../../db/entities/index.ts';
import type { SessionSettings } from '../../domain/session-settings.ts';
import type { VotingSystem } from '../../domain/deck.ts';

export type SessionStatus = 'active' | 'paused' | 'completed' | 'archived';

/** The settable fields of a session as the API names them (create and update bodies). */
export interface SessionFieldsInput {
  name?: string;
  description?: string;
  workspace_id?: number | null;
  folder_id?: number | null;
  status?: SessionStatus;
  voting_system?: VotingSystem;
  custom_deck_name?: string | null;
  custom_deck_values?: string[] | null;
  record_vote_names?: boolean;
  voteby_enabled?: boolean;
  vote_by_at?: string | null;
  auto_reveal?: boolean;
  require_participant_token?: boolean;
}

type Field = keyof SessionFieldsInput;
type Prop = keyof Session &
  (keyof SessionSettings | 'name' | 'description' | 'workspaceId' | 'folderId' | 'status');

/** API field -> entity property: one table for reading bodies and for naming changes in events. */
export const sessionFields: Record<Field, Prop> = {
  name: 'name',
  description: 'description',
  workspace_id: 'workspaceId',
  folder_id: 'folderId',
  status: 'status',
  voting_system: 'votingSystem',
  custom_deck_name: 'customDeckName',
  custom_deck_values: 'customDeckValues',
  record_vote_names: 'recordVoteNames',
  voteby_enabled: 'votebyEnabled',
  vote_by_at: 'voteByAt',
  auto_reveal: 'autoReveal',
  require_participant_token: 'requireParticipantToken',
};

const settingKeys: Array<keyof SessionSettings> = [
  'votingSystem',
  'customDeckName',
  'customDeckValues',
  'recordVoteNames',
  'votebyEnabled',
  'voteByAt',
  'autoReveal',
  'requireParticipantToken',
];

/** The fields a body sets, as entity values (timestamps as dates). */
export function entityValues(input: SessionFieldsInput): Map<Prop, unknown> {
  const values = new Map<Prop, unknown>();
  for (const [field, prop] of Object.entries(sessionFields) as Array<[Field, Prop]>) {
    const value = input[field];
    if (value === undefined) continue;
    values.set(prop, field === 'vote_by_at' && value !== null ? new Date(value as string) : value);
  }
  return values;
}

/** The settings among the values (what the cross-field rules look at). */
export function settingsIn(values: Map<Prop, unknown>): Partial<SessionSettings> {
  const settings: Partial<SessionSettings> = {};
  for (const key of settingKeys) if (values.has(key)) Object.assign(settings, { [key]: values.get(key) });
  return settings;
}

export function settingsOf(s: Session): SessionSettings {
  return Object.fromEntries(settingKeys.map((k) => [k, s[k] ?? null])) as unknown as SessionSettings;
}

/** Equal as stored: dates by instant, decks by their cards. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}
