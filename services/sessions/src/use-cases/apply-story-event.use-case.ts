import type { EventData, EventEnvelope } from '@pp/contracts';
import type { EntityManager } from '@pp/db';
import { row } from '../db/sql.ts';
import {
  applyStorySnapshot,
  applyStoryStatus,
  deleteStory,
  demoteOtherVotingStories,
  sealRoundOf,
} from '../db/story.repository.ts';
import type { StoryEventType } from '../domain/story-events.ts';

export type StoryEvent = { [T in StoryEventType]: EventEnvelope<EventData<T>> & { type: T } }[StoryEventType];

async function makeCurrent(em: EntityManager, sessionId: string, storyId: string, at: Date) {
  await applyStoryStatus(em, sessionId, storyId, 'voting', at);
  await demoteOtherVotingStories(em, sessionId, storyId, at);
}

/**
 * Keeps sessions' view of the stories in step with the stories service: what each story is called,
 * where it stands, and which one is current (the `voting` one, whose round takes the votes).
 */
export async function applyStoryEvent(em: EntityManager, event: StoryEvent): Promise<void> {
  const { session_id: sessionId, story } = event.data;
  const at = new Date(event.occurred_at);
  const known = await row(em, 'select 1 from sessions where id = ?', [sessionId]);
  if (!known) return; // not a session of ours: nothing to keep

  if (event.type === 'story.deleted') {
    await deleteStory(em, story.id);
  } else {
    await applyStorySnapshot(em, sessionId, story, at);
    if (story.status === 'voting') await demoteOtherVotingStories(em, sessionId, story.id, at);
  }
  if (event.type === 'story.revealed') await sealRoundOf(em, story.id, at);
  if ((event.type === 'story.revealed' || event.type === 'story.deleted') && event.data.next_story_id) {
    await makeCurrent(em, sessionId, event.data.next_story_id, at);
  }
}
