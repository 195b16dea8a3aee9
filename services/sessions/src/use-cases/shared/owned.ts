import { ownedBy, type AppError } from '@pp/http';
import { FolderNotFoundError, TemplateNotFoundError, WorkspaceNotFoundError } from '../../errors.ts';

type Owned = 'folder' | 'template' | 'workspace';

const notFound: Record<Owned, () => AppError> = {
  folder: () => new FolderNotFoundError(),
  template: () => new TemplateNotFoundError(),
  workspace: () => new WorkspaceNotFoundError(),
};

/** A folder, template or workspace the caller owns: 404 when there is none, 403 when another account's. */
export const owned = <T extends { ownerId: string }>(
  found: T | null | undefined,
  ownerId: string,
  what: Owned,
) => ownedBy(found, ownerId, what, notFound[what]);
