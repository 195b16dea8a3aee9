import type { SessionRecord, StoryRecord } from '../db/entities/index.ts';
import { votesToShow, type RoomVote } from '../domain/vote-names.ts';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Kept votes of a revealed story, named per the session's record_vote_names; null before the reveal. */
const keptVotes = (story: StoryRecord, session: SessionRecord) =>
  story.status === 'revealed' ? votesToShow(story.votes ?? [], session.recordVoteNames) : null;

export const storyView = (story: StoryRecord, session: SessionRecord) => ({
  id: story.id,
  session_id: story.sessionId,
  title: story.title,
  description: story.description,
  acceptance_criteria: story.acceptanceCriteria,
  status: story.status,
  position: story.position,
  final_estimate: story.finalEstimate ?? null,
  votes: keptVotes(story, session),
  revealed_at: iso(story.revealedAt),
  created_at: story.createdAt.toISOString(),
  updated_at: story.updatedAt.toISOString(),
});

/** The reveal's answer: the room's view, voters always named. */
export const revealedView = (story: StoryRecord, session: SessionRecord, votes: RoomVote[]) => ({
  ...storyView(story, session),
  votes: votes.map((v) => ({
    participant: { id: v.participant.id, name: v.participant.name },
    value: v.value,
  })),
});

export const roomStoryView = (story: StoryRecord, session: SessionRecord) => ({
  id: story.id,
  title: story.title,
  description: story.description,
  acceptance_criteria: story.acceptanceCriteria,
  status: story.status,
  position: story.position,
  final_estimate: story.finalEstimate ?? null,
  votes: keptVotes(story, session),
});

export const summaryView = (story: { id: string; title: string; status: string; position: number }) => ({
  id: story.id,
  title: story.title,
  status: story.status,
  position: story.position,
});
