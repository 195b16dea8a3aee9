import { LockMode } from '@pp/db';
import { ValidationError } from '@pp/http';
import { Workspace } from '../db/entities/index.ts';
import { ensureWorkspace } from '../db/workspace.repository.ts';
import { presetProblems } from '../domain/presets.ts';
import type { SessionsContext } from './shared/context.ts';
import { prefixed, presetOf, type PresetInput } from './shared/presets.ts';

/**
 * Renames the caller's workspace and changes the defaults it names (the others stay), under the
 * workspace's row lock: two changes at once both count.
 */
export async function updateWorkspace(
  ctx: SessionsContext,
  ownerId: string,
  patch: { name?: string; defaults?: PresetInput },
) {
  const { id } = await ensureWorkspace(ctx.em, ownerId, ctx.now());
  return ctx.em.fork().transactional(async (tx) => {
    const workspace = await tx.findOneOrFail(
      Workspace,
      { id },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const defaults = { ...workspace.defaults, ...presetOf(patch.defaults ?? {}) };
    const problems = presetProblems(defaults);
    if (Object.keys(problems).length > 0) throw new ValidationError(prefixed(problems, 'defaults'));
    Object.assign(workspace, { name: patch.name ?? workspace.name, defaults, updatedAt: ctx.now() });
    return workspace;
  });
}
