import type { SessionSnapshot } from '@pp/contracts';
import type { SessionRecord } from '../../db/entities/index.ts';
import { deckOf } from '../../domain/deck.ts';

/** What other units keep of a session (session.* events and the internal lookup). */
export const toSnapshot = (s: SessionRecord): SessionSnapshot => ({
  id: s.id,
  code: s.code,
  owner_id: s.ownerId,
  name: s.name,
  status: s.status as SessionSnapshot['status'],
  voting_system: s.votingSystem,
  deck: deckOf(s.votingSystem, s.customDeckValues ?? null),
  record_vote_names: s.recordVoteNames,
  auto_reveal: s.autoReveal,
  voteby_enabled: s.votebyEnabled,
  vote_by_at: s.voteByAt ? s.voteByAt.toISOString() : null,
  updated_at: s.updatedAt.toISOString(),
});
