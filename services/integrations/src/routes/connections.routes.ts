import { Router } from 'express';
import { send, signedIn, validate } from '@pp/http';
import { integrationsApi as api } from '../api/docs.ts';
import { createConnection } from '../use-cases/create-connection.use-case.ts';
import { deleteConnection } from '../use-cases/delete-connection.use-case.ts';
import { listConnections } from '../use-cases/list-connections.use-case.ts';
import { listProviders } from '../use-cases/list-providers.use-case.ts';
import { testConnection } from '../use-cases/test-connection.use-case.ts';
import { updateConnection } from '../use-cases/update-connection.use-case.ts';
import { userId, type RouteDeps } from './deps.ts';

/** The provider registry and the caller's connections (owner only). */
export function connectionsRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.get('/integrations/providers', signedIn, (_req, res) =>
    send(res, 200, { providers: listProviders() }),
  );
  router.get(
    '/integrations/connections',
    signedIn,
    validate({}, async (_input, req, res) => {
      send(res, 200, { connections: await listConnections(deps.context(), userId(req)) });
    }),
  );
  router.post(
    '/integrations/connections',
    signedIn,
    validate(api['POST /integrations/connections'], async ({ body }, req, res) => {
      send(res, 201, { connection: await createConnection(deps.context(), userId(req), body) });
    }),
  );
  router.patch(
    '/integrations/connections/:connection',
    signedIn,
    validate(api['PATCH /integrations/connections/{connection}'], async ({ params, body }, req, res) => {
      send(res, 200, {
        connection: await updateConnection(deps.context(), userId(req), params.connection, body),
      });
    }),
  );
  router.delete(
    '/integrations/connections/:connection',
    signedIn,
    validate(api['DELETE /integrations/connections/{connection}'], async ({ params }, req, res) => {
      send(
        res,
        200,
        { connection: await deleteConnection(deps.context(), userId(req), params.connection) },
        'Connection deleted',
      );
    }),
  );
  router.post(
    '/integrations/connections/:connection/test',
    signedIn,
    validate(api['POST /integrations/connections/{connection}/test'], async ({ params }, req, res) => {
      send(res, 200, await testConnection(deps.context(), userId(req), params.connection));
    }),
  );
  return router;
}
