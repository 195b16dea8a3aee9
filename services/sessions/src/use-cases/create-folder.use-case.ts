import { withUniqueAs } from '@pp/db';
import { Folder } from '../db/entities/index.ts';
import { DuplicateNameError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';

/** A new folder of the owner; a name the owner uses already, in any case, is a 409 `duplicate`. */
export async function createFolder(
  ctx: SessionsContext,
  ownerId: string,
  input: { name: string; color: string },
) {
  const now = ctx.now();
  const folder = ctx.em.create(Folder, {
    ownerId,
    name: input.name,
    color: input.color.toLowerCase(),
    createdAt: now,
    updatedAt: now,
  });
  await withUniqueAs(
    () => new DuplicateNameError('folder'),
    () => ctx.em.flush(),
  );
  return folder;
}
