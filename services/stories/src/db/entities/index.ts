import { eventEntities } from '@pp/events';
import { SessionView } from './session.entity.ts';
import { Story, type StoredVote } from './story.entity.ts';

export { SessionView, Story, type StoredVote };
export const entities = [SessionView, Story, ...eventEntities];
