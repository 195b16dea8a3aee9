import { suggestEstimate } from '../domain/estimate.ts';
import { answer } from './shared/answer.ts';
import type { AiContext, SuggestionRequest } from './shared/context.ts';
import { ownedStory } from './shared/load-session.ts';
import { ownerHistory } from './shared/owner-history.ts';
import { storyData } from './shared/story-data.ts';

/** A card of the session's deck for a story, from the owner's similar revealed stories. */
export async function estimateStory(ctx: AiContext, request: SuggestionRequest) {
  const { session, stories, story } = await ownedStory(ctx, request.userId, request.code, request.story_id);
  const history = await ownerHistory(ctx, session.owner_id, stories);
  const builtin = suggestEstimate(story, history, session.deck);
  return answer(ctx, { ...request, kind: 'estimate-assistant', deck: session.deck }, builtin, {
    story: storyData(story),
    deck: session.deck,
    similar_stories: builtin.similar_stories,
  });
}
