import { Router } from 'express';
import { pageMeta, requireUser, send, signedIn, validate } from '@pp/http';
import { sessionsApi as api } from '../api/docs.ts';
import { createSessionFromTemplate } from '../use-cases/create-session-from-template.use-case.ts';
import { createTemplate } from '../use-cases/create-template.use-case.ts';
import { deleteTemplate } from '../use-cases/delete-template.use-case.ts';
import { getTemplate } from '../use-cases/get-template.use-case.ts';
import { getWorkspace } from '../use-cases/get-workspace.use-case.ts';
import { listOwnTemplates } from '../use-cases/list-templates.use-case.ts';
import { updateTemplate } from '../use-cases/update-template.use-case.ts';
import { updateWorkspace } from '../use-cases/update-workspace.use-case.ts';
import type { RouteDeps } from './deps.ts';
import { sessionView, templateSummaryView, templateView, workspaceView } from './views.ts';

/** The caller's workspace: its name, the defaults of new sessions, and the room templates. */
export function workspaceRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.use('/workspace', signedIn);
  router.get('/workspace', async (req, res) => {
    send(res, 200, { workspace: workspaceView(await getWorkspace(deps.context(), requireUser(req).sub)) });
  });
  router.patch(
    '/workspace',
    validate(api['PATCH /workspace'], async ({ body }, req, res) => {
      const workspace = await updateWorkspace(deps.context(), requireUser(req).sub, body);
      send(res, 200, { workspace: workspaceView(workspace) });
    }),
  );
  router.get(
    '/workspace/templates',
    validate(api['GET /workspace/templates'], async ({ query }, req, res) => {
      const { templates, total } = await listOwnTemplates(
        deps.context(),
        requireUser(req).sub,
        query.page,
        query.per_page,
      );
      send(res, 200, {
        templates: templates.map((t) =>
          templateSummaryView({ ...t, createdAt: t.created_at, updatedAt: t.updated_at }, t.stories_count),
        ),
        meta: pageMeta(query.page, query.per_page, total),
      });
    }),
  );
  router.post(
    '/workspace/templates',
    validate(api['POST /workspace/templates'], async ({ body }, req, res) => {
      const template = await createTemplate(deps.context(), requireUser(req).sub, body);
      send(res, 201, { template: templateView(template) }, 'Template created');
    }),
  );
  router.get(
    '/workspace/templates/:template',
    validate(api['GET /workspace/templates/{template}'], async ({ params }, req, res) => {
      const template = await getTemplate(deps.context(), requireUser(req).sub, params.template);
      send(res, 200, { template: templateView(template) });
    }),
  );
  router.patch(
    '/workspace/templates/:template',
    validate(api['PATCH /workspace/templates/{template}'], async ({ params, body }, req, res) => {
      const template = await updateTemplate(deps.context(), requireUser(req).sub, params.template, body);
      send(res, 200, { template: templateView(template) });
    }),
  );
  router.delete(
    '/workspace/templates/:template',
    validate(api['DELETE /workspace/templates/{template}'], async ({ params }, req, res) => {
      const template = await deleteTemplate(deps.context(), requireUser(req).sub, params.template);
      send(res, 200, { template: templateView(template) }, 'Template deleted');
    }),
  );
  router.post(
    '/workspace/templates/:template/sessions',
    validate(api['POST /workspace/templates/{template}/sessions'], async ({ params, body }, req, res) => {
      const made = await createSessionFromTemplate(
        deps.context(),
        requireUser(req).sub,
        params.template,
        body,
      );
      send(
        res,
        201,
        { session: sessionView(made.session, made.facts), stories: made.stories },
        'Session created',
      );
    }),
  );
  return router;
}
