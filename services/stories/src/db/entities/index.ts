import { eventEntities } from '@pp/events';
import { SessionView, type SessionRecord } from './session.entity.ts';
import { Story, type StoredVote, type StoryRecord } from './story.entity.ts';

export { SessionView, Story, type SessionRecord, type StoredVote, type StoryRecord };
export const entities = [SessionView, Story, ...eventEntities];
