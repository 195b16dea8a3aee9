import { Router } from 'express';
import { pageMeta, requireUser, send, signedIn, validate } from '@pp/http';
import { webhooksApi as api } from '../api/docs.ts';
import { createWebhook } from '../use-cases/create-webhook.use-case.ts';
import { deleteWebhook } from '../use-cases/delete-webhook.use-case.ts';
import { getWebhook } from '../use-cases/get-webhook.use-case.ts';
import { listWebhooks } from '../use-cases/list-webhooks.use-case.ts';
import { updateWebhook } from '../use-cases/update-webhook.use-case.ts';
import type { RouteDeps } from './deps.ts';
import { webhookView, withSecret } from './views.ts';

/** `/webhooks` and `/webhooks/{id}`: the caller's own webhooks only. */
export function webhooksRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.use('/webhooks', signedIn);
  router.get(
    '/webhooks',
    validate(api['GET /webhooks'], async ({ query }, req, res) => {
      const ctx = deps.context();
      const { webhooks, total } = await listWebhooks(ctx, requireUser(req).sub, query.page, query.per_page);
      const now = ctx.now();
      send(res, 200, {
        webhooks: webhooks.map((w) => webhookView(w, now)),
        meta: pageMeta(query.page, query.per_page, total),
      });
    }),
  );
  router.post(
    '/webhooks',
    validate(api['POST /webhooks'], async ({ body }, req, res) => {
      const ctx = deps.context();
      const { webhook, secret } = await createWebhook(ctx, requireUser(req).sub, body);
      send(res, 201, { webhook: withSecret(webhookView(webhook, ctx.now()), secret) }, 'Webhook created');
    }),
  );
  router.get(
    '/webhooks/:id',
    validate(api['GET /webhooks/{id}'], async ({ params }, req, res) => {
      const ctx = deps.context();
      send(res, 200, {
        webhook: webhookView(await getWebhook(ctx, requireUser(req).sub, params.id), ctx.now()),
      });
    }),
  );
  router.patch(
    '/webhooks/:id',
    validate(api['PATCH /webhooks/{id}'], async ({ params, body }, req, res) => {
      const ctx = deps.context();
      const { webhook, secret } = await updateWebhook(ctx, requireUser(req).sub, params.id, body);
      send(res, 200, { webhook: withSecret(webhookView(webhook, ctx.now()), secret) });
    }),
  );
  router.delete(
    '/webhooks/:id',
    validate(api['DELETE /webhooks/{id}'], async ({ params }, req, res) => {
      const ctx = deps.context();
      const webhook = await deleteWebhook(ctx, requireUser(req).sub, params.id);
      send(res, 200, { webhook: webhookView(webhook, ctx.now()) }, 'Webhook deleted');
    }),
  );
  return router;
}
