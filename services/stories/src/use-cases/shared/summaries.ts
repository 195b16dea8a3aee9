import type { SessionSnapshot } from '@pp/contracts';
import type { SessionRecord, StoryRecord } from '../../db/entities/index.ts';

/** The story as events carry it. */
export const storySummary = (story: Pick<StoryRecord, 'id' | 'title' | 'status' | 'position'>) => ({
  id: story.id,
  title: story.title,
  status: story.status,
  position: story.position,
});

export const sessionRef = (session: Pick<SessionRecord, 'id' | 'code'>) => ({
  session_id: session.id,
  session_code: session.code,
});

/** A session as the sessions unit describes it, as the read model keeps it. */
export const sessionOfSnapshot = (s: SessionSnapshot): SessionRecord => ({
  id: s.id,
  code: s.code,
  ownerId: s.owner_id,
  name: s.name,
  status: s.status,
  votingSystem: s.voting_system,
  deck: s.deck,
  recordVoteNames: s.record_vote_names,
  autoReveal: s.auto_reveal,
  votebyEnabled: s.voteby_enabled,
  voteByAt: s.vote_by_at ? new Date(s.vote_by_at) : null,
  updatedAt: new Date(s.updated_at),
});
