import type { AppError } from '@pp/http';
import {
  FolderNotFoundError,
  NotOwnerError,
  TemplateNotFoundError,
  WorkspaceNotFoundError,
} from '../../errors.ts';

type Owned = 'folder' | 'template' | 'workspace';

const notFound: Record<Owned, () => AppError> = {
  folder: () => new FolderNotFoundError(),
  template: () => new TemplateNotFoundError(),
  workspace: () => new WorkspaceNotFoundError(),
};

/**
 * What a path or a field names, when the caller owns it: 404 when there is no such thing, 403 when it
 * is another account's (as for sessions and stories).
 */
export function owned<T extends { ownerId: string }>(
  found: T | null | undefined,
  ownerId: string,
  what: Owned,
): T {
  if (!found) throw notFound[what]();
  if (found.ownerId !== ownerId) throw new NotOwnerError(what);
  return found;
}
