import { isForeignKeyViolation, type EntityManager } from '@pp/db';
import { Workspace } from '../../db/entities/index.ts';
import { findFolder } from '../../db/folder.repository.ts';
import { FolderNotFoundError } from '../../errors.ts';
import { owned } from './owned.ts';

/**
 * A session's folder and workspace must be its owner's: an unknown id is a 404, another owner's a 403,
 * and neither links. null takes the session out of them.
 */
export async function checkLinks(
  em: EntityManager,
  ownerId: string,
  input: { folder_id?: number | null; workspace_id?: number | null },
): Promise<void> {
  if (typeof input.folder_id === 'number') owned(await findFolder(em, input.folder_id), ownerId, 'folder');
  if (typeof input.workspace_id === 'number')
    owned(await em.findOne(Workspace, { id: input.workspace_id }), ownerId, 'workspace');
}

/** Writes a session; a folder deleted meanwhile (checked, then gone) is as unknown as one never there. */
export async function withLinks<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw new FolderNotFoundError();
    throw err;
  }
}
