import { improveStory } from '../domain/improve.ts';
import { answer } from './shared/answer.ts';
import type { AiContext, SuggestionRequest } from './shared/context.ts';
import { ownedStory } from './shared/load-session.ts';
import { storyData } from './shared/story-data.ts';

/** A rewritten title and description in user-story form, with the reasons. */
export async function improveCurrentStory(ctx: AiContext, request: SuggestionRequest) {
  const { story } = await ownedStory(ctx, request.userId, request.code, request.story_id);
  return answer(ctx, { ...request, kind: 'improve-current-story' }, improveStory(story), {
    story: storyData(story),
  });
}
