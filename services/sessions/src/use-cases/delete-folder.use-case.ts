import { lockFolder, sessionsInFolder } from '../db/folder.repository.ts';
import { rowIdOf } from '../domain/row-id.ts';
import { FolderNotFoundError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';
import { owned } from './shared/owned.ts';
import { announce } from './shared/room-history.ts';
import { toSnapshot } from './shared/session-snapshot.ts';

/**
 * Deletes a folder of the owner. Its sessions stay, in no folder: taken out of it in the same
 * transaction (each announced by session.updated), while sessions being put in it wait for the
 * folder's lock and then find it gone.
 */
export async function deleteFolder(ctx: SessionsContext, ownerId: string, rawId: string) {
  const id = rowIdOf(rawId);
  if (id === undefined) throw new FolderNotFoundError();
  const now = ctx.now();
  const folder = await ctx.em.transactional(async (tx) => {
    const folder = owned(await lockFolder(tx, id), ownerId, 'folder');
    for (const session of await sessionsInFolder(tx, id)) {
      Object.assign(session, { folderId: null, updatedAt: now });
      announce(tx, 'session.updated', { session: toSnapshot(session), changed: ['folder_id'] });
    }
    tx.remove(folder);
    return folder;
  });
  ctx.publish();
  return folder;
}
