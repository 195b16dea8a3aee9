import { splitStory } from '../domain/split.ts';
import { answer } from './shared/answer.ts';
import type { AiContext, SuggestionRequest } from './shared/context.ts';
import { ownedStory } from './shared/load-session.ts';
import { storyData } from './shared/story-data.ts';

/** Smaller stories the story could become, each valuable on its own, and the pattern used. */
export async function splitCurrentStory(ctx: AiContext, request: SuggestionRequest) {
  const { story } = await ownedStory(ctx, request.userId, request.code, request.story_id);
  return answer(ctx, { ...request, kind: 'split-current-story' }, splitStory(story), {
    story: storyData(story),
  });
}
