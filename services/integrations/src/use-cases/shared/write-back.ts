import { AppError } from '@pp/http';
import { connectionsByIds, type ConnectionRow } from '../../db/connection.repository.ts';
import type { ImportedStory } from '../../db/import.repository.ts';
import type { SyncLogEntry, SyncStatus } from '../../db/sync-log.repository.ts';
import { isImportProvider } from '../../domain/providers.ts';
import type { IntegrationsContext } from './context.ts';
import { providerConnection } from './provider-connection.ts';

export interface SyncResult {
  story_id: string;
  external_id: string | null;
  provider: string;
  status: SyncStatus;
  estimate: string | null;
  modes: string[];
  message: string | null;
}

/** Why a failure happened, as the log and the answer say it (never a tracker's body or a secret). */
const reasonOf = (err: unknown) =>
  err instanceof AppError ? `${err.code}: ${err.message}` : 'unexpected error while writing back';

/** The connections of these imported stories, by id (those deleted since are absent). */
export async function connectionsOf(ctx: IntegrationsContext, imported: ImportedStory[]) {
  const ids = [...new Set(imported.map((i) => i.connectionId).filter((id): id is string => id !== null))];
  return new Map((await connectionsByIds(ctx.em, ids)).map((c) => [c.id, c]));
}

/** Writes one story's final estimate back to its tracker: synced, failed (with why) or skipped (with why). */
export async function writeBack(
  ctx: IntegrationsContext,
  imported: ImportedStory,
  connection: ConnectionRow | undefined,
  estimate: string | null,
): Promise<SyncResult> {
  const result = (status: SyncStatus, message: string | null, modes: string[] = []): SyncResult => ({
    story_id: imported.storyId,
    external_id: imported.externalId,
    provider: imported.provider,
    status,
    estimate,
    modes,
    message,
  });
  if (imported.provider === 'csv')
    return result('skipped', 'a CSV has no tracker to write to: use the session export');
  if (estimate === null) return result('skipped', 'no final estimate (not revealed, or no counted vote)');
  if (!connection || !isImportProvider(connection.provider))
    return result('failed', 'the connection was deleted');
  const adapter = ctx.adapters[connection.provider];
  // Its settings may point elsewhere since the import (another repository, site or project): the same
  // external id there is another issue, which must not get this estimate.
  if (adapter.source(connection.settings) !== imported.source)
    return result('failed', 'the connection reads from another tracker or project than the story came from');
  try {
    const modes = await adapter.writeEstimate(
      providerConnection(ctx, connection),
      imported.externalId,
      estimate,
    );
    return result('synced', null, modes);
  } catch (err) {
    if (!(err instanceof AppError))
      ctx.logger.error({ err, story_id: imported.storyId }, 'write-back failed');
    return result('failed', reasonOf(err));
  }
}

/** The log row of one attempt. */
export const logEntry = (
  r: SyncResult,
  base: Pick<SyncLogEntry, 'ownerId' | 'sessionId' | 'sessionCode' | 'trigger' | 'eventId'>,
  connectionId: string | null,
): SyncLogEntry => ({
  ...base,
  storyId: r.story_id,
  connectionId,
  provider: r.provider,
  externalId: r.external_id,
  status: r.status,
  estimate: r.estimate,
  message: r.message ?? (r.modes.length ? `written as ${r.modes.join(' and ')}` : null),
});

/** Runs the tasks with at most `limit` at a time, results in order. */
export async function bounded<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
