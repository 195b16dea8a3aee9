import { Router } from 'express';
import { requireUser, send, signedIn, validate } from '@pp/http';
import { aiApi as api } from '../api/docs.ts';
import { analyzeCurrentStory } from '../use-cases/analyze-story.use-case.ts';
import { draftStories } from '../use-cases/draft-stories.use-case.ts';
import { estimateStory } from '../use-cases/estimate-story.use-case.ts';
import { generateAcceptanceCriteria } from '../use-cases/generate-acceptance-criteria.use-case.ts';
import { improveCurrentStory } from '../use-cases/improve-story.use-case.ts';
import { reportEstimation } from '../use-cases/report-estimation.use-case.ts';
import type { Answer } from '../use-cases/shared/answer.ts';
import type { AiContext, SuggestionRequest } from '../use-cases/shared/context.ts';
import { splitCurrentStory } from '../use-cases/split-story.use-case.ts';
import { summarizeSession } from '../use-cases/summarize-session.use-case.ts';

export interface RouteDeps {
  /** The use-case context of the current request. */
  context: () => AiContext;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type UseCase = (ctx: AiContext, request: SuggestionRequest) => Promise<Answer<any>>;

const endpoints: Array<[keyof typeof api, string, UseCase]> = [
  ['POST /sessions/{code}/ai/summary', 'summary', summarizeSession],
  ['POST /sessions/{code}/ai/analyze-current-story', 'analyze-current-story', analyzeCurrentStory],
  ['POST /sessions/{code}/ai/draft-stories', 'draft-stories', draftStories],
  ['POST /sessions/{code}/ai/improve-current-story', 'improve-current-story', improveCurrentStory],
  [
    'POST /sessions/{code}/ai/generate-acceptance-criteria',
    'generate-acceptance-criteria',
    generateAcceptanceCriteria,
  ],
  ['POST /sessions/{code}/ai/split-current-story', 'split-current-story', splitCurrentStory],
  ['POST /sessions/{code}/ai/estimate-assistant', 'estimate-assistant', estimateStory],
  ['POST /sessions/{code}/ai/estimation-report', 'estimation-report', reportEstimation],
];

/** The assistant's eight suggestion endpoints under a session: each one use case. */
export function suggestionsRoutes(deps: RouteDeps): Router {
  const router = Router();
  for (const [key, name, useCase] of endpoints) {
    router.post(
      `/sessions/:code/ai/${name}`,
      signedIn,
      validate(api[key], async ({ params, body }, req, res) => {
        const { suggestions, provider, note } = await useCase(deps.context(), {
          userId: requireUser(req).sub,
          code: params.code,
          ...body,
        });
        send(res, 200, { suggestions, review_required: true, provider, ...(note ? { note } : {}) }, note);
      }),
    );
  }
  return router;
}
