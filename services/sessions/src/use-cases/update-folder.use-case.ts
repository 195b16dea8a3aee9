import { withUniqueAs } from '@pp/db';
import { findOwnFolder } from '../db/folder.repository.ts';
import { rowIdOf } from '../domain/row-id.ts';
import { DuplicateNameError, FolderNotFoundError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';

/** Renames or recolours a folder of the owner (another owner's is unknown: 404). */
export async function updateFolder(
  ctx: SessionsContext,
  ownerId: string,
  rawId: string,
  patch: { name?: string; color?: string },
) {
  const id = rowIdOf(rawId);
  const folder = id === undefined ? null : await findOwnFolder(ctx.em, ownerId, id);
  if (!folder) throw new FolderNotFoundError();
  const name = patch.name ?? folder.name;
  const color = patch.color?.toLowerCase() ?? folder.color;
  if (name === folder.name && color === folder.color) return folder;
  Object.assign(folder, { name, color, updatedAt: ctx.now() });
  await withUniqueAs(
    () => new DuplicateNameError('folder'),
    () => ctx.em.flush(),
  );
  return folder;
}
