import { analyzeStory } from '../domain/analyze.ts';
import { answer } from './shared/answer.ts';
import type { AiContext, SuggestionRequest } from './shared/context.ts';
import { ownedStory } from './shared/load-session.ts';
import { storyData } from './shared/story-data.ts';

/** Clarity, issues, questions and INVEST flags of a story (the current one by default). */
export async function analyzeCurrentStory(ctx: AiContext, request: SuggestionRequest) {
  const { story } = await ownedStory(ctx, request.userId, request.code, request.story_id);
  return answer(ctx, { ...request, kind: 'analyze-current-story' }, analyzeStory(story), {
    story: storyData(story),
  });
}
