import type { EntityManager } from '@pp/db';
import { Workspace } from './entities/index.ts';
import { run } from './sql.ts';

export const DEFAULT_WORKSPACE_NAME = 'My workspace';

/**
 * The owner's workspace, made on first use. Two first uses at once make one: the second insert finds
 * the first one's row (a unique owner) and does nothing, and the read after it sees that row.
 */
export async function ensureWorkspace(em: EntityManager, ownerId: string, now: Date): Promise<Workspace> {
  const found = await em.findOne(Workspace, { ownerId });
  if (found) return found;
  await run(
    em,
    `insert into workspaces (owner_id, name, defaults, created_at, updated_at) values (?, ?, '{}', ?, ?)
     on conflict (owner_id) do nothing`,
    [ownerId, DEFAULT_WORKSPACE_NAME, now, now],
  );
  return em.findOneOrFail(Workspace, { ownerId }, { refresh: true });
}
