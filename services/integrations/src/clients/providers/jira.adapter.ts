import { BoundedMap, chunksOf } from '@pp/collections';
import { z } from 'zod';
import { estimateValue, type ExternalIssue } from '../../domain/issues.ts';
import { adfNodeSchema, adfParagraph, adfToMarkdown, htmlToMarkdown } from '../../domain/markdown.ts';
import { ProviderUnavailableError } from '../../errors.ts';
import {
  root,
  text,
  tokenOf,
  type AdapterDeps,
  type IssueAdapter,
  type ProviderConnection,
} from './adapter.ts';
import { jsonOf } from './provider-http.ts';

const PROVIDER = 'Jira';
/** How long the story points field found on a site is used before it is looked for again. */
const FIELD_TTL_MS = 10 * 60_000;
/** Connections whose points field is kept at most (the oldest goes first). */
const FIELDS_KEPT = 5_000;
const PAGE = 50;
/** Keys one search names (and so the issues it asks for at once, the most Jira answers a page of). */
const KEYS_PER_SEARCH = 100;
const KEY = /^[A-Z][A-Z0-9_]{0,30}-\d{1,10}$/;

/** What the adapter reads of Jira's answers (see jsonOf: an issue without its key refuses the answer). */
const jiraIssue = z.looseObject({
  key: z.string().regex(KEY),
  // the story points field is the site's own (its id is read at run time): it stays among the others
  fields: z.looseObject({
    summary: z.string().nullish(),
    description: z.union([z.string(), adfNodeSchema]).nullish(),
    labels: z.array(z.string()).nullish(),
  }),
  renderedFields: z.looseObject({ description: z.string().nullish() }).nullish(),
});
type JiraIssue = z.output<typeof jiraIssue>;
const jiraSearch = z.looseObject({
  issues: z.array(jiraIssue),
  nextPageToken: z.string().nullish(),
  isLast: z.boolean().nullish(),
});
const jiraFields = z.array(z.looseObject({ id: z.string(), name: z.string() }));
const jiraMyself = z.looseObject({
  accountId: z.string(),
  displayName: z.string().nullish(),
  emailAddress: z.string().nullish(),
});
// a write answers what it wrote: the issue's field with 204 No Content, the comment created with 201
const jiraComment = z.looseObject({ id: z.string() });

/**
 * The estimate a points field holds: a number (or a number as text). A field of another kind (a setting
 * may name any) holds none this can read: no estimate, not a broken answer.
 */
const pointsOf = (value: unknown) =>
  typeof value === 'number' || typeof value === 'string' ? String(value) : null;

/** Jira Cloud REST v3: an API token on the site (Basic email:token), or OAuth through api.atlassian.com. */
export function jiraAdapter(deps: AdapterDeps & { cloudApiUrl: string }): IssueAdapter {
  const site = (c: { settings: Record<string, unknown> }) => root(c.settings.site_url);
  async function base(c: ProviderConnection) {
    const creds = await c.credentials();
    return creds.cloud_id
      ? `${root(deps.cloudApiUrl)}/ex/jira/${encodeURIComponent(creds.cloud_id)}`
      : site(c);
  }
  const http = (c: ProviderConnection) =>
    deps.http({
      connectionId: c.id,
      auth: async () => {
        const creds = await c.credentials();
        const authorization = creds.cloud_id
          ? `Bearer ${tokenOf(creds)}`
          : `Basic ${Buffer.from(`${creds.email}:${creds.api_token}`).toString('base64')}`;
        return { Authorization: authorization, Accept: 'application/json' };
      },
    });

  /**
   * The story points field: the setting, else the field named like it on this site (ids vary per site).
   * What was found is used for a while (FIELD_TTL_MS); a connection's test looks again (`fresh`), so a
   * field a site admin added or renamed since is found.
   */
  const pointsFields = new BoundedMap<string, { id: string | null; until: number }>(FIELDS_KEPT);
  async function pointsField(c: ProviderConnection, { fresh = false } = {}): Promise<string | null> {
    if (typeof c.settings.story_points_field === 'string') return c.settings.story_points_field;
    const known = pointsFields.get(c.id);
    if (!fresh && known && known.until > Date.now()) return known.id;
    const fields = jsonOf(PROVIDER, await http(c)({ url: `${await base(c)}/rest/api/3/field` }), jiraFields);
    const found = fields.find((f) => /^story point(s| estimate)$/i.test(f.name))?.id ?? null;
    pointsFields.set(c.id, { id: found, until: Date.now() + FIELD_TTL_MS });
    return found;
  }

  function toIssue(c: ProviderConnection, i: JiraIssue, field: string | null): ExternalIssue {
    const rendered = i.renderedFields?.description;
    return {
      externalId: i.key,
      title: i.fields.summary ?? '',
      description: rendered ? htmlToMarkdown(rendered) : adfToMarkdown(i.fields.description),
      acceptanceCriteria: '',
      url: `${site(c) || 'https://jira'}/browse/${i.key}`,
      labels: i.fields.labels ?? [],
      estimate: field ? pointsOf(i.fields[field]) : null,
    };
  }

  async function search(c: ProviderConnection, jql: string, token?: string, max = PAGE) {
    const field = await pointsField(c);
    const res = await http(c)({
      method: 'POST',
      url: `${await base(c)}/rest/api/3/search/jql`,
      data: {
        jql,
        fields: ['summary', 'description', 'labels', ...(field ? [field] : [])],
        maxResults: max,
        expand: 'renderedFields',
        ...(token ? { nextPageToken: token } : {}),
      },
    });
    const body = jsonOf(PROVIDER, res, jiraSearch);
    return {
      items: body.issues.map((i) => toIssue(c, i, field)),
      next: body.isLast === false && body.nextPageToken ? body.nextPageToken : undefined,
    };
  }

  return {
    source: (s) => `jira:${root(s.site_url)}`.toLowerCase(),
    // a key is the same in any case (JQL takes it so); Jira answers it in capitals
    idOf: (id) => id.toUpperCase(),
    urls: (s) => (s.site_url ? [{ field: 'site_url', url: String(s.site_url) }] : []),
    async test(c) {
      const me = jsonOf(PROVIDER, await http(c)({ url: `${await base(c)}/rest/api/3/myself` }), jiraMyself);
      // The site's fields looked at again (the search below uses what is found).
      const points = await pointsField(c, { fresh: true });
      await search(c, text(c.settings.jql), undefined, 1);
      const warnings = points ? [] : ['no story points field: estimates will be written as comments'];
      return { account: me.emailAddress ?? me.displayName ?? 'unknown', warnings };
    },
    page: (c, cursor) => search(c, text(c.settings.jql), cursor),
    async fetch(c, ids) {
      const keys = ids.filter((id) => KEY.test(id));
      const unique = [...new Set(keys)];
      const byKey = new Map<string, ExternalIssue>();
      for (const named of chunksOf(unique, KEYS_PER_SEARCH)) {
        // Jira may answer a page with fewer issues than asked for: its token leads to the rest
        // (each page brings one at least, so there are no more pages than keys)
        let token: string | undefined;
        for (let pages = 0; pages < named.length; pages++) {
          const found = await search(c, `key in (${named.join(', ')})`, token, named.length);
          for (const issue of found.items) byKey.set(issue.externalId, issue);
          token = found.next;
          if (!token) break;
        }
      }
      return keys.map((k) => byKey.get(k)).filter((i): i is ExternalIssue => i !== undefined);
    },
    async writeEstimate(c, key, estimate) {
      const url = `${await base(c)}/rest/api/3/issue/${encodeURIComponent(key)}`;
      const value = estimateValue(estimate);
      const field = await pointsField(c);
      if (field && typeof value === 'number') {
        const res = await http(c)({
          method: 'PUT',
          url,
          data: { fields: { [field]: value } },
          notFound: `issue ${key}`,
        });
        if (res.status !== 204)
          throw new ProviderUnavailableError(PROVIDER, { status: res.status, expected: 204 });
        return ['field'];
      }
      const res = await http(c)({
        method: 'POST',
        url: `${url}/comment`,
        data: { body: adfParagraph(`Estimated in planning poker: ${estimate}`) },
        notFound: `issue ${key}`,
      });
      if (res.status !== 201)
        throw new ProviderUnavailableError(PROVIDER, { status: res.status, expected: 201 });
      jsonOf(PROVIDER, res, jiraComment);
      return ['comment'];
    },
  };
}
