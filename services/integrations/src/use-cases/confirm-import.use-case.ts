import { enqueue } from '@pp/events';
import type { AddedStory } from '../clients/units.client.ts';
import { recordImported } from '../db/import.repository.ts';
import { fitToStory, type ExternalIssue } from '../domain/issues.ts';
import { batches, importedStoryId } from '../domain/story-ids.ts';
import { fieldError } from '../errors.ts';
import { csvIssues } from './shared/csv-issues.ts';
import { SOURCE, type IntegrationsContext } from './shared/context.ts';
import { trackerSource } from './shared/issue-source.ts';
import { issueOf, type IssueView } from './shared/issue-view.ts';
import { ownedSession } from './shared/owned-session.ts';

type Item = string | (Partial<IssueView> & { external_id: string; title: string });

export type ConfirmInput =
  { provider: 'csv'; csv?: string; issues?: Item[] } | { connection_id: string; issues: Item[] };

/** A CSV import: the file's rows (those of the ids given, in their order), or the preview items as sent. */
function csvImport(input: { csv?: string; issues?: Item[] }): ExternalIssue[] {
  const items = input.issues ?? [];
  if (input.csv === undefined) {
    if (items.some((i) => typeof i === 'string'))
      throw fieldError('issues', 'ids need the csv they come from');
    return (items as Exclude<Item, string>[]).map(issueOf);
  }
  if (items.some((i) => typeof i !== 'string'))
    throw fieldError('issues', 'with the csv, send the ids of the rows to import');
  const rows = csvIssues(input.csv);
  if (items.length === 0) return rows;
  const byId = new Map(rows.map((r) => [r.externalId, r]));
  const missing = (items as string[]).filter((id) => !byId.has(id));
  if (missing.length > 0)
    throw fieldError('issues', `not rows of the csv: ${missing.slice(0, 10).join(', ')}`);
  return (items as string[]).map((id) => byId.get(id)!);
}

/** The issues to import, in order: preview items as sent (edited or not), ids fetched from the tracker. */
async function issuesOf(ctx: IntegrationsContext, ownerId: string, input: ConfirmInput) {
  if ('provider' in input)
    return { issues: csvImport(input), source: 'csv', provider: 'csv', connectionId: null };
  const tracker = await trackerSource(ctx, ownerId, input.connection_id);
  // an id as the user wrote it, in the form the tracker's issues carry (and so the import's key)
  const idOf = (id: string) => tracker.adapter.idOf(id);
  const ids = input.issues.filter((i): i is string => typeof i === 'string');
  const fetched = new Map(
    (ids.length ? await tracker.adapter.fetch(tracker.connection, ids.map(idOf)) : []).map((i) => [
      i.externalId,
      i,
    ]),
  );
  const missing = ids.filter((id) => !fetched.has(idOf(id)));
  if (missing.length > 0)
    throw fieldError('issues', `not found in the tracker: ${missing.slice(0, 10).join(', ')}`);
  const issues = input.issues.map((i) => (typeof i === 'string' ? fetched.get(idOf(i))! : issueOf(i)));
  return { issues, source: tracker.source, provider: tracker.row.provider, connectionId: tracker.row.id };
}

/**
 * Adds the issues to the session's queue, in order, through the stories unit, and remembers which
 * story each became. Idempotent per session, source and external id: each issue's story id is derived
 * from them, so an issue imported before (or a retry after a failure half way) adds nothing twice.
 * Announced by import.completed with the stories of this import.
 */
export async function confirmImport(
  ctx: IntegrationsContext,
  ownerId: string,
  code: string,
  input: ConfirmInput,
) {
  const session = await ownedSession(ctx, ownerId, code);
  const { issues, source, provider, connectionId } = await issuesOf(ctx, ownerId, input);
  const unique = [...new Map(issues.map((i) => [i.externalId, fitToStory(i)])).values()];
  // The stories the session has now: an issue imported before whose story was deleted since is added
  // again, and so not listed as already imported.
  const had = new Set((await ctx.units.stories(session.code)).map((s) => s.id.toLowerCase()));
  const planned = unique.map((issue: ExternalIssue) => ({
    issue,
    id: importedStoryId(session.id, source, issue.externalId),
  }));
  const added: AddedStory[] = [];
  for (const batch of batches(
    planned.map(({ issue, id }) => ({
      id,
      title: issue.title,
      description: issue.description,
      acceptance_criteria: issue.acceptanceCriteria,
    })),
  ))
    added.push(...(await ctx.units.addStories(session.id, batch)));

  const now = ctx.now();
  await ctx.em.transactional(async (em) => {
    await recordImported(
      em,
      planned.map(({ issue, id }) => ({
        sessionId: session.id,
        source,
        externalId: issue.externalId,
        storyId: id,
        provider,
        connectionId,
        url: issue.url,
      })),
      now,
    );
    enqueue(
      em,
      'import.completed',
      {
        session_id: session.id,
        session_code: session.code,
        provider,
        connection_id: connectionId,
        story_ids: added.map((s) => s.id),
      },
      { source: SOURCE },
    );
  });
  ctx.publish();
  return added.map((story, i) => ({
    ...story,
    external_id: planned[i]!.issue.externalId,
    url: planned[i]!.issue.url,
    already_imported: had.has(planned[i]!.id.toLowerCase()),
  }));
}
