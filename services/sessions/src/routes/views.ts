import type { Participant, SessionRecord } from '../db/entities/index.ts';
import { deckOf } from '../domain/deck.ts';
import type { SessionFacts } from '../use-cases/session-facts.ts';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const noFacts: SessionFacts = { participantsCount: 0, currentStory: null };

/** What anyone with the code sees: the room's facts and the cards. */
export const publicSessionView = (s: SessionRecord, facts: SessionFacts = noFacts) => ({
  id: s.id,
  name: s.name,
  status: s.status,
  code: s.code,
  participants_count: facts.participantsCount,
  current_story: facts.currentStory,
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
