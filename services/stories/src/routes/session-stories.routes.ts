import { gzipSync } from 'node:zlib';
import { Router } from 'express';
import { envelope, send, signedIn, validate } from '@pp/http';
import { storiesApi as api } from '../api/docs.ts';
import { toCsv } from '../domain/csv.ts';
import { exportRows } from '../domain/export-rows.ts';
import { addStory } from '../use-cases/add-story.use-case.ts';
import { exportSession } from '../use-cases/export-session.use-case.ts';
import { listSessionStories } from '../use-cases/list-session-stories.use-case.ts';
import { sessionAnalytics } from '../use-cases/session-analytics.use-case.ts';
import { startQuickVote } from '../use-cases/start-quick-vote.use-case.ts';
import { userActor, type RouteDeps } from './deps.ts';
import { roomStoryView, storyView } from './views.ts';

/** Analytics as written into a response, by the analytics object they were written from. */
const serialized = new WeakMap<object, { json: Buffer; gzip: Buffer | undefined }>();
/** Smaller answers go as they are: compressing them would cost more than it saves. */
const GZIP_FROM_BYTES = 8_192;

/** Paths under a session code: its stories (the room's view and adding one), the export and analytics. */
export function sessionStoriesRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.post(
    '/sessions/:code/stories',
    signedIn,
    validate(api['POST /sessions/{code}/stories'], async ({ params, body }, req, res) => {
      const { story, session } = await addStory(deps.context(), userActor(req), params.code, body);
      send(res, 201, { story: storyView(story, session) });
    }),
  );
  router.post(
    '/sessions/:code/quick-vote',
    signedIn,
    validate(api['POST /sessions/{code}/quick-vote'], async ({ params, body }, req, res) => {
      const { story, session } = await startQuickVote(
        deps.context(),
        userActor(req),
        params.code,
        body.title,
      );
      send(res, 201, { story: storyView(story, session) });
    }),
  );
  router.get(
    '/sessions/:code/stories',
    validate(api['GET /sessions/{code}/stories'], async ({ params }, _req, res) => {
      const { session, stories } = await listSessionStories(deps.context(), params.code);
      send(res, 200, { stories: stories.map((s) => roomStoryView(s, session)) });
    }),
  );
  router.get(
    '/sessions/:code/export',
    signedIn,
    validate(api['GET /sessions/{code}/export'], async ({ params, query }, req, res) => {
      const result = await exportSession(deps.context(), userActor(req), params.code);
      if (query.format === 'json') return send(res, 200, result);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader(
        'Content-Disposition',
        `attachment; filename="session-${result.session.code}-stories.csv"`,
      );
      res.setHeader('Cache-Control', 'no-store');
      res.status(200).send(toCsv(exportRows(result.stories)));
    }),
  );
  router.get(
    '/sessions/:code/analytics',
    signedIn,
    validate(api['GET /sessions/{code}/analytics'], async ({ params }, req, res) => {
      const analytics = await sessionAnalytics(deps.context(), userActor(req), params.code);
      // The same analytics (an unchanged session) are sent as they were written the last time,
      // gzipped for a client that takes it (a long session's analytics run to megabytes of JSON).
      let body = serialized.get(analytics);
      if (body === undefined) {
        const json = Buffer.from(JSON.stringify(envelope({ analytics })));
        serialized.set(analytics, (body = { json, gzip: undefined }));
      }
      res.status(200).type('application/json').vary('Accept-Encoding');
      if (body.json.length < GZIP_FROM_BYTES || req.acceptsEncodings('gzip', 'identity') !== 'gzip') {
        res.send(body.json);
        return;
      }
      body.gzip ??= gzipSync(body.json);
      res.setHeader('Content-Encoding', 'gzip');
      res.send(body.gzip);
    }),
  );
  return router;
}
