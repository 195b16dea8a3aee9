import { listFolders } from '../db/folder.repository.ts';
import type { SessionsContext } from './shared/context.ts';

/** One page of the owner's folders, by name. */
export async function listOwnFolders(ctx: SessionsContext, ownerId: string, page: number, perPage: number) {
  const [folders, total] = await listFolders(ctx.em, ownerId, page, perPage);
  return { folders, total };
}
