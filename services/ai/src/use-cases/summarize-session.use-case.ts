import { summarizeSession as summarize } from '../domain/summary.ts';
import { answer } from './shared/answer.ts';
import type { AiContext, SuggestionRequest } from './shared/context.ts';
import { ownedSession } from './shared/load-session.ts';
import { estimatedStoryData } from './shared/story-data.ts';

/** Where the session stands: summary, highlights, risks and next steps. */
export async function summarizeSession(ctx: AiContext, request: SuggestionRequest) {
  const session = await ownedSession(ctx, request.userId, request.code);
  const stories = await ctx.stories.list(session.id);
  return answer(ctx, { ...request, kind: 'summary' }, summarize(session, stories, session.deck), {
    session: { name: session.name, deck: session.deck },
    stories: stories.map(estimatedStoryData),
  });
}
