import { fitToStory, type ExternalIssue } from '../domain/issues.ts';
import { decodeCursor, encodeCursor } from '../domain/preview-cursor.ts';
import { fieldError } from '../errors.ts';
import type { IntegrationsContext } from './shared/context.ts';
import { csvIssues } from './shared/csv-issues.ts';
import { trackerSource } from './shared/issue-source.ts';

export type PreviewInput =
  { provider: 'csv'; csv: string } | { connection_id: string; params?: { limit?: number; cursor?: string } };

export const DEFAULT_PREVIEW_LIMIT = 100;

/**
 * The issues an import would bring, stored nowhere: a CSV's rows, or up to `limit` issues of a
 * tracker connection (its configured filters), page after page of the provider; `next_cursor`
 * continues where this stopped (in the middle of a provider's page too).
 */
export async function previewImport(ctx: IntegrationsContext, ownerId: string, input: PreviewInput) {
  if ('provider' in input) return { issues: csvIssues(input.csv).map(fitToStory), nextCursor: null };
  const { adapter, connection } = await trackerSource(ctx, ownerId, input.connection_id);
  const limit = input.params?.limit ?? DEFAULT_PREVIEW_LIMIT;
  const start = input.params?.cursor ? decodeCursor(input.params.cursor) : { page: undefined, skip: 0 };
  if (!start) throw fieldError('params.cursor', 'not a cursor of this API');
  const issues: ExternalIssue[] = [];
  let page = start.page;
  let skip = start.skip;
  for (;;) {
    const got = await adapter.page(connection, page);
    const items = got.items.slice(skip);
    const room = limit - issues.length;
    if (items.length > room) {
      issues.push(...items.slice(0, room));
      return { issues: issues.map(fitToStory), nextCursor: encodeCursor({ page, skip: skip + room }) };
    }
    issues.push(...items);
    if (!got.next || issues.length >= limit)
      return {
        issues: issues.map(fitToStory),
        nextCursor: got.next ? encodeCursor({ page: got.next, skip: 0 }) : null,
      };
    page = got.next;
    skip = 0;
  }
}
