import { estimateValue, type ExternalIssue } from '../../domain/issues.ts';
import { adfParagraph, adfToMarkdown, htmlToMarkdown } from '../../domain/markdown.ts';
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
const PAGE = 50;
const KEY = /^[A-Z][A-Z0-9_]{0,30}-\d{1,10}$/;

interface JiraIssue {
  id: string;
  key: string;
  fields: Record<string, unknown> & { summary?: string; description?: unknown; labels?: string[] };
  renderedFields?: { description?: string | null };
}

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

  /** The story points field: the setting, else the field named like it on this site (ids vary per site). */
  const pointsFields = new Map<string, string | null>();
  async function pointsField(c: ProviderConnection): Promise<string | null> {
    if (typeof c.settings.story_points_field === 'string') return c.settings.story_points_field;
    if (!pointsFields.has(c.id)) {
      const fields = jsonOf<Array<{ id: string; name: string }>>(
        PROVIDER,
        await http(c)({ url: `${await base(c)}/rest/api/3/field` }),
      );
      const found = fields.find((f) => /^story point(s| estimate)$/i.test(f.name));
      pointsFields.set(c.id, found?.id ?? null);
    }
    return pointsFields.get(c.id) ?? null;
  }

  function toIssue(c: ProviderConnection, i: JiraIssue, field: string | null): ExternalIssue {
    const rendered = i.renderedFields?.description;
    const points = field ? i.fields[field] : null;
    return {
      externalId: i.key,
      title: i.fields.summary ?? '',
      description: rendered ? htmlToMarkdown(rendered) : adfToMarkdown(i.fields.description),
      acceptanceCriteria: '',
      url: `${site(c) || 'https://jira'}/browse/${i.key}`,
      labels: i.fields.labels ?? [],
      estimate: points === null || points === undefined ? null : String(points),
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
    const body = jsonOf<{ issues: JiraIssue[]; nextPageToken?: string; isLast?: boolean }>(PROVIDER, res);
    return {
      items: body.issues.map((i) => toIssue(c, i, field)),
      next: body.isLast === false && body.nextPageToken ? body.nextPageToken : undefined,
    };
  }

  return {
    source: (s) => `jira:${root(s.site_url)}`.toLowerCase(),
    urls: (s) => (s.site_url ? [{ field: 'site_url', url: String(s.site_url) }] : []),
    async test(c) {
      const me = jsonOf<{ displayName?: string; emailAddress?: string }>(
        PROVIDER,
        await http(c)({ url: `${await base(c)}/rest/api/3/myself` }),
      );
      await search(c, text(c.settings.jql), undefined, 1);
      const warnings = (await pointsField(c))
        ? []
        : ['no story points field: estimates will be written as comments'];
      return { account: me.emailAddress ?? me.displayName ?? 'unknown', warnings };
    },
    page: (c, cursor) => search(c, text(c.settings.jql), cursor),
    async fetch(c, ids) {
      const keys = ids.filter((id) => KEY.test(id));
      if (keys.length === 0) return [];
      const found = await search(c, `key in (${keys.join(', ')})`, undefined, Math.min(100, keys.length));
      const byKey = new Map(found.items.map((i) => [i.externalId, i]));
      return keys.map((k) => byKey.get(k)).filter((i): i is ExternalIssue => i !== undefined);
    },
    async writeEstimate(c, key, estimate) {
      const url = `${await base(c)}/rest/api/3/issue/${encodeURIComponent(key)}`;
      const value = estimateValue(estimate);
      const field = await pointsField(c);
      if (field && typeof value === 'number') {
        await http(c)({ method: 'PUT', url, data: { fields: { [field]: value } }, notFound: `issue ${key}` });
        return ['field'];
      }
      await http(c)({
        method: 'POST',
        url: `${url}/comment`,
        data: { body: adfParagraph(`Estimated in planning poker: ${estimate}`) },
        notFound: `issue ${key}`,
      });
      return ['comment'];
    },
  };
}
