import { withUniqueAs } from '@pp/db';
import { findFolder } from '../db/folder.repository.ts';
import { rowIdOf } from '../domain/row-id.ts';
import { DuplicateNameError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';
import { owned } from './shared/owned.ts';

/** Renames or recolours a folder of the owner (404 for no such folder, 403 for another owner's). */
export async function updateFolder(
  ctx: SessionsContext,
  ownerId: string,
  rawId: string,
  patch: { name?: string; color?: string },
) {
  const id = rowIdOf(rawId);
  const folder = owned(id === undefined ? null : await findFolder(ctx.em, id), ownerId, 'folder');
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
