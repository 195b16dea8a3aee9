import { Router } from 'express';
import { pageMeta, requireUser, send, signedIn, validate } from '@pp/http';
import { webhooksApi as api } from '../api/docs.ts';
import { listDeliveries } from '../use-cases/list-deliveries.use-case.ts';
import { redeliver } from '../use-cases/redeliver.use-case.ts';
import { sendTestDelivery } from '../use-cases/send-test-delivery.use-case.ts';
import type { RouteDeps } from './deps.ts';
import { deliveryView } from './views.ts';

/** A webhook's deliveries: the log, a test delivery, a redelivery (the webhook's owner only). */
export function deliveriesRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.use('/webhooks', signedIn);
  router.post(
    '/webhooks/:id/test',
    validate(api['POST /webhooks/{id}/test'], async ({ params }, req, res) => {
      const delivery = await sendTestDelivery(deps.context(), requireUser(req).sub, params.id);
      send(res, 202, { delivery: deliveryView(delivery, []) }, 'Test delivery queued');
    }),
  );
  router.get(
    '/webhooks/:id/deliveries',
    validate(api['GET /webhooks/{id}/deliveries'], async ({ params, query }, req, res) => {
      const user = requireUser(req).sub;
      const { deliveries, total } = await listDeliveries(
        deps.context(),
        user,
        params.id,
        query.page,
        query.per_page,
      );
      send(res, 200, {
        deliveries: deliveries.map((d) => deliveryView(d.delivery, d.attempts)),
        meta: pageMeta(query.page, query.per_page, total),
      });
    }),
  );
  router.post(
    '/webhooks/:id/deliveries/:delivery/redeliver',
    validate(api['POST /webhooks/{id}/deliveries/{delivery}/redeliver'], async ({ params }, req, res) => {
      const user = requireUser(req).sub;
      const { delivery, attempts } = await redeliver(deps.context(), user, params.id, params.delivery);
      send(res, 202, { delivery: deliveryView(delivery, attempts) }, 'Redelivery queued');
    }),
  );
  return router;
}
