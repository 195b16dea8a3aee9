import { Router } from 'express';
import { pageMeta, send, signedIn, validate } from '@pp/http';
import { integrationsApi as api } from '../api/docs.ts';
import { confirmImport } from '../use-cases/confirm-import.use-case.ts';
import { listSyncLogs } from '../use-cases/list-sync-logs.use-case.ts';
import { previewImport } from '../use-cases/preview-import.use-case.ts';
import { syncEstimates } from '../use-cases/sync-estimates.use-case.ts';
import { userId, type RouteDeps } from './deps.ts';
import { issueView } from '../use-cases/shared/issue-view.ts';

/** Imports (preview, then confirm into a session) and estimate syncs with their log. */
export function importsRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.post(
    '/integrations/import-preview',
    signedIn,
    validate(api['POST /integrations/import-preview'], async ({ body }, req, res) => {
      const { issues, nextCursor } = await previewImport(deps.context(), userId(req), body);
      send(res, 200, { issues: issues.map(issueView), next_cursor: nextCursor });
    }),
  );
  router.post(
    '/sessions/:code/integrations/import-confirm',
    signedIn,
    validate(api['POST /sessions/{code}/integrations/import-confirm'], async ({ params, body }, req, res) => {
      const stories = await confirmImport(deps.context(), userId(req), params.code, body);
      const count = stories.length;
      send(res, 201, { stories }, `${count} ${count === 1 ? 'story' : 'stories'} imported`);
    }),
  );
  router.post(
    '/sessions/:code/integrations/sync-estimates',
    signedIn,
    validate(api['POST /sessions/{code}/integrations/sync-estimates'], async ({ params, body }, req, res) => {
      send(res, 200, { sync: await syncEstimates(deps.context(), userId(req), params.code, body.story_ids) });
    }),
  );
  router.get(
    '/integrations/sync-logs',
    signedIn,
    validate(api['GET /integrations/sync-logs'], async ({ query }, req, res) => {
      const filter = {
        ownerId: userId(req),
        sessionCode: query.session_code,
        connectionId: query.connection_id,
        status: query.status,
      };
      const { logs, total } = await listSyncLogs(deps.context(), filter, query.page, query.per_page);
      send(res, 200, { sync_logs: logs, meta: pageMeta(query.page, query.per_page, total) });
    }),
  );
  return router;
}
