import { findFolder } from '../db/folder.repository.ts';
import { rowIdOf } from '../domain/row-id.ts';
import type { SessionsContext } from './shared/context.ts';
import { owned } from './shared/owned.ts';

/** A folder of the owner (404 for no such folder, 403 for another owner's). */
export async function getFolder(ctx: SessionsContext, ownerId: string, rawId: string) {
  const id = rowIdOf(rawId);
  return owned(id === undefined ? null : await findFolder(ctx.em, id), ownerId, 'folder');
}
