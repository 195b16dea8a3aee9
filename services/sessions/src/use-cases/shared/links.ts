import { isForeignKeyViolation, type EntityManager } from '@pp/db';
import { Workspace } from '../../db/entities/index.ts';
import { findOwnFolder } from '../../db/folder.repository.ts';
import { FolderNotFoundError, WorkspaceNotFoundError } from '../../errors.ts';

/**
 * A session's folder and workspace must be its owner's: another owner's id is refused as unknown
 * (404), and never links. null takes the session out of them.
 */
export async function checkLinks(
  em: EntityManager,
  ownerId: string,
  input: { folder_id?: number | null; workspace_id?: number | null },
): Promise<void> {
  if (typeof input.folder_id === 'number' && !(await findOwnFolder(em, ownerId, input.folder_id)))
    throw new FolderNotFoundError();
  if (
    typeof input.workspace_id === 'number' &&
    !(await em.findOne(Workspace, { id: input.workspace_id, ownerId }))
  )
    throw new WorkspaceNotFoundError();
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
