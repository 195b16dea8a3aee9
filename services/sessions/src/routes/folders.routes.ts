import { Router } from 'express';
import { pageMeta, requireUser, send, signedIn, validate } from '@pp/http';
import { sessionsApi as api } from '../api/docs.ts';
import { createFolder } from '../use-cases/create-folder.use-case.ts';
import { deleteFolder } from '../use-cases/delete-folder.use-case.ts';
import { getFolder } from '../use-cases/get-folder.use-case.ts';
import { listOwnFolders } from '../use-cases/list-folders.use-case.ts';
import { updateFolder } from '../use-cases/update-folder.use-case.ts';
import type { RouteDeps } from './deps.ts';
import { folderView } from './views.ts';

/** The caller's folders of sessions. */
export function folderRoutes(deps: RouteDeps): Router {
  const router = Router();
  router.use('/folders', signedIn);
  router.get(
    '/folders',
    validate(api['GET /folders'], async ({ query }, req, res) => {
      const { folders, total } = await listOwnFolders(
        deps.context(),
        requireUser(req).sub,
        query.page,
        query.per_page,
      );
      send(res, 200, { folders: folders.map(folderView), meta: pageMeta(query.page, query.per_page, total) });
    }),
  );
  router.post(
    '/folders',
    validate(api['POST /folders'], async ({ body }, req, res) => {
      const folder = await createFolder(deps.context(), requireUser(req).sub, body);
      send(res, 201, { folder: folderView(folder) }, 'Folder created');
    }),
  );
  router.get(
    '/folders/:id',
    validate(api['GET /folders/{id}'], async ({ params }, req, res) => {
      const folder = await getFolder(deps.context(), requireUser(req).sub, params.id);
      send(res, 200, { folder: folderView(folder) });
    }),
  );
  router.patch(
    '/folders/:id',
    validate(api['PATCH /folders/{id}'], async ({ params, body }, req, res) => {
      const folder = await updateFolder(deps.context(), requireUser(req).sub, params.id, body);
      send(res, 200, { folder: folderView(folder) });
    }),
  );
  router.delete(
    '/folders/:id',
    validate(api['DELETE /folders/{id}'], async ({ params }, req, res) => {
      const folder = await deleteFolder(deps.context(), requireUser(req).sub, params.id);
      send(res, 200, { folder: folderView(folder) }, 'Folder deleted; its sessions are in no folder now');
    }),
  );
  return router;
}
