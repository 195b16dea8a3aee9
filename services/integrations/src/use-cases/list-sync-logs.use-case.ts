import { syncLogPage, type SyncLogFilter } from '../db/sync-log.repository.ts';
import type { IntegrationsContext } from './shared/context.ts';

/** The caller's sync log, newest first, a page at a time. */
export async function listSyncLogs(
  ctx: IntegrationsContext,
  filter: SyncLogFilter,
  page: number,
  perPage: number,
) {
  const { logs, total } = await syncLogPage(
    ctx.em,
    { ...filter, sessionCode: filter.sessionCode?.toUpperCase() },
    page,
    perPage,
  );
  return {
    total,
    logs: logs.map((l) => ({
      id: l.id,
      session_id: l.sessionId,
      session_code: l.sessionCode,
      story_id: l.storyId,
      connection_id: l.connectionId,
      provider: l.provider,
      external_id: l.externalId,
      status: l.status,
      estimate: l.estimate,
      message: l.message,
      trigger: l.trigger,
      created_at: l.createdAt.toISOString(),
    })),
  };
}
