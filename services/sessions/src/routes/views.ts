import type { Folder, Participant, SessionRecord, Template, Workspace } from '../db/entities/index.ts';
import { deckOf } from '../domain/deck.ts';
import { presetView } from '../use-cases/shared/presets.ts';
import type { SessionFacts } from '../use-cases/shared/session-facts.ts';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const noFacts: SessionFacts = { participantsCount: 0, currentStory: null, countdown: null };

/** What anyone with the code sees: the room's facts and the cards. */
export const publicSessionView = (s: SessionRecord, facts: SessionFacts = noFacts) => ({
  id: s.id,
  name: s.name,
  status: s.status,
  code: s.code,
  participants_count: facts.participantsCount,
  current_story: facts.currentStory,
  countdown: facts.countdown,
  voting_system: s.votingSystem,
  deck: deckOf(s.votingSystem, s.customDeckValues ?? null),
  voteby_enabled: s.votebyEnabled,
  vote_by_at: iso(s.voteByAt),
});

/** The owner's view: every field of the session. */
export const sessionView = (s: SessionRecord, facts: SessionFacts = noFacts) => ({
  ...publicSessionView(s, facts),
  owner_id: s.ownerId,
  description: s.description,
  workspace_id: s.workspaceId ?? null,
  folder_id: s.folderId ?? null,
  record_vote_names: s.recordVoteNames,
  custom_deck_name: s.customDeckName ?? null,
  custom_deck_values: s.customDeckValues ?? null,
  auto_reveal: s.autoReveal,
  require_participant_token: s.requireParticipantToken,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});

export const participantView = (p: Pick<Participant, 'id' | 'name' | 'role'>) => ({
  id: p.id,
  name: p.name,
  role: p.role,
});

/** A participant as the room lists it: with whether it is connected now. */
export const roomParticipantView = (
  p: Pick<Participant, 'id' | 'name' | 'role'>,
  connected: ReadonlySet<number>,
) => ({
  ...participantView(p),
  connected: connected.has(p.id),
});

const isoOf = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export const folderView = (f: Folder) => ({
  id: f.id,
  name: f.name,
  color: f.color,
  created_at: isoOf(f.createdAt),
  updated_at: isoOf(f.updatedAt),
});

export const workspaceView = (w: Workspace) => ({
  id: w.id,
  name: w.name,
  defaults: presetView(w.defaults, true),
  created_at: isoOf(w.createdAt),
  updated_at: isoOf(w.updatedAt),
});

type TemplateFields = Pick<Template, 'id' | 'name' | 'description' | 'settings' | 'createdAt' | 'updatedAt'>;

export const templateSummaryView = (t: TemplateFields, storiesCount: number) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  settings: presetView(t.settings),
  stories_count: storiesCount,
  created_at: isoOf(t.createdAt),
  updated_at: isoOf(t.updatedAt),
});

export const templateView = (t: Template) => ({
  ...templateSummaryView(t, t.stories.length),
  stories: t.stories.map((s) => ({
    title: s.title,
    description: s.description,
    acceptance_criteria: s.acceptance_criteria,
  })),
});
