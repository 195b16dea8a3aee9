import { Router } from 'express';
import { namesRoomController, requireRoomController, send, signedIn, validate } from '@pp/http';
import type { Request } from 'express';
import { storiesApi as api } from '../api/docs.ts';
import { activateStory } from '../use-cases/activate-story.use-case.ts';
import { deleteStory } from '../use-cases/delete-story.use-case.ts';
import { getStory } from '../use-cases/get-story.use-case.ts';
import { resetStory } from '../use-cases/reset-story.use-case.ts';
import { revealStory } from '../use-cases/reveal-story.use-case.ts';
import { updateStory } from '../use-cases/update-story.use-case.ts';
import { userActor, type RouteDeps } from './deps.ts';
import { roundActor } from '../use-cases/shared/round-controller.ts';
import { revealedView, storyView, summaryView } from './views.ts';

/**
 * `/stories/{story}`: read, edit and delete (owner only), and round control (reveal, reset, activate):
 * the owner, or the room's moderator by its participant token.
 */
export function storiesRoutes(deps: RouteDeps): Router {
  const router = Router();
  const actorFor = (req: Request, storyId: string) =>
    roundActor(deps.context(), requireRoomController(req), storyId);
  router.get(
    '/stories/:story',
    signedIn,
    validate(api['GET /stories/{story}'], async ({ params }, req, res) => {
      const { story, session } = await getStory(deps.context(), userActor(req), params.story);
      send(res, 200, { story: storyView(story, session) });
    }),
  );
  router.patch(
    '/stories/:story',
    signedIn,
    validate(api['PATCH /stories/{story}'], async ({ params, body }, req, res) => {
      const { story, session } = await updateStory(deps.context(), userActor(req), params.story, body);
      send(res, 200, { story: storyView(story, session) });
    }),
  );
  router.delete(
    '/stories/:story',
    signedIn,
    validate(api['DELETE /stories/{story}'], async ({ params }, req, res) => {
      const { deleted, next } = await deleteStory(deps.context(), userActor(req), params.story);
      send(res, 200, { story: deleted, next_story: next ? summaryView(next) : null }, 'Story deleted');
    }),
  );
  router.post(
    '/stories/:story/reveal',
    namesRoomController,
    validate(api['POST /stories/{story}/reveal'], async ({ params }, req, res) => {
      const { story, session, votes, next } = await revealStory(
        deps.context(),
        await actorFor(req, params.story),
        params.story,
      );
      send(res, 200, {
        story: revealedView(story, session, votes),
        next_story: next ? summaryView(next) : null,
      });
    }),
  );
  router.post(
    '/stories/:story/reset',
    namesRoomController,
    validate(api['POST /stories/{story}/reset'], async ({ params }, req, res) => {
      const { story, session } = await resetStory(
        deps.context(),
        await actorFor(req, params.story),
        params.story,
      );
      send(res, 200, { story: storyView(story, session) });
    }),
  );
  router.post(
    '/stories/:story/activate',
    namesRoomController,
    validate(api['POST /stories/{story}/activate'], async ({ params }, req, res) => {
      const { story, session } = await activateStory(
        deps.context(),
        await actorFor(req, params.story),
        params.story,
      );
      send(res, 200, { story: storyView(story, session) });
    }),
  );
  return router;
}
