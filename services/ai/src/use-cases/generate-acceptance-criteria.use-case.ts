import { acceptanceCriteria, criteriaLimit } from '../domain/criteria.ts';
import { answer } from './shared/answer.ts';
import type { AiContext, SuggestionRequest } from './shared/context.ts';
import { ownedStory } from './shared/load-session.ts';
import { storyData } from './shared/story-data.ts';

export const DEFAULT_CRITERIA = 6;

/** Given/When/Then criteria of a story, a failure path among them. */
export async function generateAcceptanceCriteria(ctx: AiContext, request: SuggestionRequest) {
  const { story } = await ownedStory(ctx, request.userId, request.code, request.story_id);
  // The count both engines are held to (a model is told it, and refused past it).
  const count = criteriaLimit(request.count ?? DEFAULT_CRITERIA);
  return answer(
    ctx,
    { ...request, count, kind: 'generate-acceptance-criteria' },
    acceptanceCriteria(story, count),
    {
      story: storyData(story),
    },
  );
}
