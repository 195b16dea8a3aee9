import { Router } from 'express';
import { send, signedIn, validate } from '@pp/http';
import { storiesApi as api } from '../api/docs.ts';
import { activateStory } from '../use-cases/activate-story.use-case.ts';
import { deleteStory } from '../use-cases/delete-story.use-case.ts';
import { getStory } from '../use-cases/get-story.use-case.ts';
import { resetStory } from '../use-cases/reset-story.use-case.ts';
import { revealStory } from '../use-cases/reveal-story.use-case.ts';
import { updateStory } from '../use-cases/update-story.use-case.ts';
import { userActor, type RouteDeps } from './deps.ts';
import { revealedView, storyView, summaryView } from './views.ts';

/** `/stories/{story}`: read, edit, delete, and round control (reveal, reset, activate); owner only. */
export function storiesRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.use('/stories', signedIn);
  router.get(
    '/stories/:story',
    validate(api['GET /stories/{story}'], async ({ params }, req, res) => {
      const { story, session } = await getStory(deps.context(), userActor(req), params.story);
      send(res, 200, { story: storyView(story, session) });
    }),
  );
  router.patch(
    '/stories/:story',
    validate(api['PATCH /stories/{story}'], async ({ params, body }, req, res) => {
      const { story, session } = await updateStory(deps.context(), userActor(req), params.story, body);
      send(res, 200, { story: storyView(story, session) });
    }),
  );
  router.delete(
    '/stories/:story',
    validate(api['DELETE /stories/{story}'], async ({ params }, req, res) => {
      const { deleted, next } = await deleteStory(deps.context(), userActor(req), params.story);
      send(res, 200, { story: deleted, next_story: next ? summaryView(next) : null }, 'Story deleted');
    }),
  );
  router.post(
    '/stories/:story/reveal',
    validate(api['POST /stories/{story}/reveal'], async ({ params }, req, res) => {
      const { story, session, votes, next } = await revealStory(deps.context(), userActor(req), params.story);
      send(res, 200, {
        story: revealedView(story, session, votes),
        next_story: next ? summaryView(next) : null,
      });
    }),
  );
  router.post(
    '/stories/:story/reset',
    validate(api['POST /stories/{story}/reset'], async ({ params }, req, res) => {
      const { story, session } = await resetStory(deps.context(), userActor(req), params.story);
      send(res, 200, { story: storyView(story, session) });
    }),
  );
  router.post(
    '/stories/:story/activate',
    validate(api['POST /stories/{story}/activate'], async ({ params }, req, res) => {
      const { story, session } = await activateStory(deps.context(), userActor(req), params.story);
      send(res, 200, { story: storyView(story, session) });
    }),
  );
  return router;
}
