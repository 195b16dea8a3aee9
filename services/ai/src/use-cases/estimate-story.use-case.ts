import { suggestEstimate } from '../domain/estimate.ts';
import { answer } from './shared/answer.ts';
import type { AiContext, SuggestionRequest } from './shared/context.ts';
import { chosenStory, ownedSession } from './shared/load-session.ts';
import { ownerHistory } from './shared/owner-history.ts';
import { storyData } from './shared/story-data.ts';

/** A card of the session's deck for a story, from the owner's similar revealed stories. */
export async function estimateStory(ctx: AiContext, request: SuggestionRequest) {
  const session = await ownedSession(ctx, request.userId, request.code);
  // The session's revealed stories join the owner's history (the latest reveal may not be in it yet).
  const [story, revealed] = await Promise.all([
    chosenStory(ctx, session.id, request.story_id),
    ctx.stories.list(session.id, { status: ['revealed'] }),
  ]);
  const history = await ownerHistory(ctx, session.owner_id, revealed);
  const builtin = suggestEstimate(story, history, session.deck);
  return answer(ctx, { ...request, kind: 'estimate-assistant', deck: session.deck }, builtin, {
    story: storyData(story),
    deck: session.deck,
    similar_stories: builtin.similar_stories,
  });
}
