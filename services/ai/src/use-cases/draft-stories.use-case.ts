import { draftStories as draft } from '../domain/draft.ts';
import { BriefRequiredError } from '../errors.ts';
import { answer } from './shared/answer.ts';
import type { AiContext, SuggestionRequest } from './shared/context.ts';
import { ownedSession } from './shared/load-session.ts';

export const DEFAULT_DRAFTS = 3;

/** `count` stories drafted from a brief (`text`, else `prompt`). */
export async function draftStories(ctx: AiContext, request: SuggestionRequest) {
  const session = await ownedSession(ctx, request.userId, request.code);
  const brief = request.text ?? request.prompt;
  if (!brief) throw new BriefRequiredError();
  const count = request.count ?? DEFAULT_DRAFTS;
  return answer(ctx, { ...request, count, kind: 'draft-stories' }, draft(brief, count), {
    session: { name: session.name },
    brief,
  });
}
