import { estimationReport } from '../domain/report.ts';
import { answer } from './shared/answer.ts';
import type { AiContext, SuggestionRequest } from './shared/context.ts';
import { ownedSession } from './shared/load-session.ts';

/** The session's estimation in figures (totals, agreement, outlying votes) and recommendations. */
export async function reportEstimation(ctx: AiContext, request: SuggestionRequest) {
  const session = await ownedSession(ctx, request.userId, request.code);
  const stories = await ctx.stories.list(session.id);
  const builtin = estimationReport(session.id, stories, session.deck);
  const { recommendations: _, ...figures } = builtin;
  return answer(ctx, { ...request, kind: 'estimation-report' }, builtin, {
    session: { name: session.name, deck: session.deck },
    figures,
  });
}
