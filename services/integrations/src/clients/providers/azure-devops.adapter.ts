import { chunksOf } from '@pp/collections';
import { z } from 'zod';
import { estimateValue, type ExternalIssue } from '../../domain/issues.ts';
import { htmlToMarkdown } from '../../domain/markdown.ts';
import {
  root,
  text,
  tokenOf,
  type AdapterDeps,
  type IssueAdapter,
  type ProviderConnection,
} from './adapter.ts';
import { jsonOf } from './provider-http.ts';

const PROVIDER = 'Azure DevOps';
const VERSION = '7.1';
const BATCH = 200;
const POINTS = 'Microsoft.VSTS.Scheduling.StoryPoints';
const FIELDS = [
  'System.Title',
  'System.Description',
  'Microsoft.VSTS.Common.AcceptanceCriteria',
  'System.Tags',
  POINTS,
];

const ID = /^\d{1,10}$/;
const workItemId = z.number().int().min(1).max(9_999_999_999);

/** What the adapter reads of Azure DevOps' answers (see jsonOf: a work item without its id refuses it). */
const workItem = z.looseObject({
  id: workItemId,
  // a batch answers only the fields that hold a value
  fields: z.looseObject({
    'System.Title': z.string().nullish(),
    'System.Description': z.string().nullish(),
    'Microsoft.VSTS.Common.AcceptanceCriteria': z.string().nullish(),
    'System.Tags': z.string().nullish(),
    [POINTS]: z.number().nullish(),
  }),
});
type WorkItem = z.output<typeof workItem>;
// asked with errorPolicy omit: a work item that is not there (deleted, or out of reach) is null
const workItemBatch = z.looseObject({ value: z.array(workItem.nullable()) });
const wiqlResult = z.looseObject({ workItems: z.array(z.looseObject({ id: workItemId })) });
const fieldDefinition = z.looseObject({ referenceName: z.string() });
// a write answers what it wrote: the updated work item, the comment added to it
const writtenItem = z.looseObject({ id: workItemId });
const workItemComment = z.looseObject({ id: z.number() });

/** Azure DevOps Boards (or Azure DevOps Server at its organization URL): WIQL for the ids, then batches of work items. */
export function azureDevopsAdapter(deps: AdapterDeps): IssueAdapter {
  const project = (s: Record<string, unknown>) =>
    `${root(s.organization_url)}/${encodeURIComponent(text(s.project))}`;
  const api = (c: ProviderConnection, path: string) => `${project(c.settings)}/_apis/${path}`;
  const http = (c: ProviderConnection) =>
    deps.http({
      connectionId: c.id,
      auth: async () => {
        const creds = await c.credentials();
        const authorization = creds.access_token
          ? `Bearer ${creds.access_token}`
          : `Basic ${Buffer.from(`:${tokenOf(creds)}`).toString('base64')}`;
        return { Authorization: authorization, Accept: 'application/json' };
      },
    });
  const toIssue = (c: ProviderConnection, w: WorkItem): ExternalIssue => ({
    externalId: String(w.id),
    title: w.fields['System.Title'] ?? '',
    description: htmlToMarkdown(w.fields['System.Description']),
    acceptanceCriteria: htmlToMarkdown(w.fields['Microsoft.VSTS.Common.AcceptanceCriteria']),
    url: `${project(c.settings)}/_workitems/edit/${w.id}`,
    labels: (w.fields['System.Tags'] ?? '')
      .split(';')
      .map((t) => t.trim())
      .filter(Boolean),
    estimate: w.fields[POINTS] === undefined || w.fields[POINTS] === null ? null : String(w.fields[POINTS]),
  });
  /**
   * The work items of these ids, up to 200 (a batch's most), those Azure DevOps does not have left out:
   * without errorPolicy omit, one of them fails the whole batch with 404.
   */
  async function batch(c: ProviderConnection, ids: number[]) {
    if (ids.length === 0) return [];
    const res = await http(c)({
      method: 'POST',
      url: api(c, 'wit/workitemsbatch'),
      params: { 'api-version': VERSION },
      data: { ids, fields: FIELDS, errorPolicy: 'omit' },
    });
    return jsonOf(PROVIDER, res, workItemBatch)
      .value.filter((w) => w !== null)
      .map((w) => toIssue(c, w));
  }
  const wiql = (s: Record<string, unknown>) =>
    text(s.wiql) ||
    "SELECT [System.Id] FROM WorkItems WHERE [System.TeamProject] = @project AND [System.State] NOT IN ('Closed', 'Done', 'Removed') ORDER BY [System.ChangedDate] DESC";

  return {
    source: (s) => `azure_devops:${project(s)}`.toLowerCase(),
    idOf: (id) => (ID.test(id) ? String(Number(id)) : id),
    urls: (s) => (s.organization_url ? [{ field: 'organization_url', url: String(s.organization_url) }] : []),
    async test(c) {
      jsonOf(
        PROVIDER,
        await http(c)({ url: api(c, `wit/fields/${POINTS}`), params: { 'api-version': VERSION } }),
        fieldDefinition,
      );
      return { account: text(c.settings.project), warnings: [] };
    },
    async page(c, cursor) {
      const res = await http(c)({
        method: 'POST',
        url: api(c, 'wit/wiql'),
        params: { 'api-version': VERSION },
        data: { query: wiql(c.settings) },
      });
      const ids = jsonOf(PROVIDER, res, wiqlResult).workItems.map((w) => w.id);
      // WIQL answers ids only: a page is a slice of them, hydrated in one batch
      const offset = Math.max(0, Number(cursor ?? 0) || 0);
      const items = await batch(c, ids.slice(offset, offset + BATCH));
      return { items, next: offset + BATCH < ids.length ? String(offset + BATCH) : undefined };
    },
    async fetch(c, ids) {
      const numbers = [...new Set(ids.filter((id) => ID.test(id)).map(Number))];
      const found = new Map<string, ExternalIssue>();
      for (const chunk of chunksOf(numbers, BATCH))
        for (const issue of await batch(c, chunk)) found.set(issue.externalId, issue);
      return ids.map((id) => found.get(id)).filter((i): i is ExternalIssue => i !== undefined);
    },
    async writeEstimate(c, id, estimate) {
      const value = estimateValue(estimate);
      if (typeof value === 'number') {
        const res = await http(c)({
          method: 'PATCH',
          url: api(c, `wit/workitems/${encodeURIComponent(id)}`),
          params: { 'api-version': VERSION },
          headers: { 'Content-Type': 'application/json-patch+json' },
          data: JSON.stringify([{ op: 'add', path: `/fields/${POINTS}`, value }]),
          notFound: `work item ${id}`,
        });
        jsonOf(PROVIDER, res, writtenItem);
        return ['field'];
      }
      const res = await http(c)({
        method: 'POST',
        url: api(c, `wit/workItems/${encodeURIComponent(id)}/comments`),
        params: { 'api-version': '7.1-preview.4' },
        data: { text: `Estimated in planning poker: ${estimate}` },
        notFound: `work item ${id}`,
      });
      jsonOf(PROVIDER, res, workItemComment);
      return ['comment'];
    },
  };
}
