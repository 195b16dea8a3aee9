import { eventEntities } from '@pp/events';
import { ModelBudget } from './model-budget.entity.ts';
import { PastStory } from './past-story.entity.ts';

export { ModelBudget, PastStory };
export const entities = [PastStory, ModelBudget, ...eventEntities];
