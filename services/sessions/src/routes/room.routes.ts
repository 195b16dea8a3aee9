import { Router } from 'express';
import { send, validate } from '@pp/http';
import { sessionsApi as api } from '../api/docs.ts';
import type { OpenPresenceStreams } from '../background/presence.task.ts';
import type { RoomHub } from '../background/room-hub.ts';
import { followRoom } from '../use-cases/follow-room.use-case.ts';
import { openRoom } from '../use-cases/open-room.use-case.ts';
import type { RouteDeps } from './deps.ts';
import { followPresence } from './presence.ts';
import { publicSessionView, roomParticipantView, sessionView } from './views.ts';

/**
 * The live room: the whole room in one read, and a Server-Sent Events stream of what happens in it
 * from there (public, like the lookup).
 */
export function roomRoutes(deps: RouteDeps, hub: RoomHub, presence: OpenPresenceStreams): Router {
  const router = Router();
  router.get(
    '/sessions/:code/events',
    validate(api['GET /sessions/{code}/events'], async ({ params }, req, res) => {
      const room = await followRoom(deps.context(), params.code);
      await hub.open(req, res, room.sessionId, room.missedSince);
      await followPresence(deps, req, res, room.sessionId, presence);
    }),
  );
  router.get(
    '/sessions/:code/room',
    validate(api['GET /sessions/{code}/room'], async ({ params }, req, res) => {
      const room = await openRoom(deps.context(), params.code, req.identity, hub.position());
      const view = room.isOwner ? sessionView : publicSessionView;
      send(res, 200, {
        session: view(room.session, room.facts),
        participants: room.participants.map((p) => roomParticipantView(p, room.connected)),
        stories: room.stories,
        round: room.round && {
          story_id: room.round.storyId,
          voted: room.round.voted,
          stats: room.round.stats,
        },
        last_event_id: room.lastEventId,
      });
    }),
  );
  return router;
}
