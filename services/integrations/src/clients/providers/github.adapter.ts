import { estimateValue } from '../../domain/issues.ts';
import { ProviderRejectedError } from '../../errors.ts';
import type { AxiosResponse } from 'axios';
import {
  root,
  text,
  tokenOf,
  type AdapterDeps,
  type IssueAdapter,
  type ProviderConnection,
} from './adapter.ts';
import { jsonOf } from './provider-http.ts';

const PROVIDER = 'GitHub';
const DEFAULT_API = 'https://api.github.com';
const PER_PAGE = 100;
const LABEL_PREFIX = 'estimate: ';

interface GithubIssue {
  number: number;
  title: string;
  body: string | null;
  html_url: string;
  labels: Array<string | { name?: string }>;
  pull_request?: unknown;
}

/** GitHub's answer is a rate limit: 403/429 with no requests left (wait for the reset), or a secondary limit. */
function githubWait(res: AxiosResponse): number | undefined {
  if (res.status !== 403 && res.status !== 429) return undefined;
  const h = res.headers;
  if (h['retry-after'] !== undefined) return Number(h['retry-after']) * 1000;
  if (h['x-ratelimit-remaining'] === '0' && h['x-ratelimit-reset'] !== undefined)
    return Math.max(0, Number(h['x-ratelimit-reset']) * 1000 - Date.now());
  const message = String((res.data as { message?: string } | undefined)?.message ?? '');
  return /secondary rate limit/i.test(message) ? 60_000 : res.status === 429 ? 60_000 : undefined;
}

/** GitHub Issues (github.com or GitHub Enterprise Server through `api_url`): REST v3. */
export function githubAdapter(deps: AdapterDeps): IssueAdapter {
  const base = (s: Record<string, unknown>) => root(s.api_url ?? DEFAULT_API);
  const repo = (s: Record<string, unknown>) =>
    `${base(s)}/repos/${encodeURIComponent(text(s.owner))}/${encodeURIComponent(text(s.repository))}`;
  const http = (c: ProviderConnection) =>
    deps.http({
      connectionId: c.id,
      rateLimit: { waitMs: githubWait },
      auth: async () => ({
        Authorization: `Bearer ${tokenOf(await c.credentials())}`,
        Accept: 'application/vnd.github+json',
        'X-GitHub-Api-Version': '2022-11-28',
        'User-Agent': 'planning-poker-integrations',
      }),
    });
  const toIssue = (s: Record<string, unknown>, i: GithubIssue) => ({
    externalId: String(i.number),
    title: i.title,
    description: i.body ?? '',
    acceptanceCriteria: '',
    url: i.html_url,
    labels: i.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean),
    estimate:
      i.labels
        .map((l) => (typeof l === 'string' ? l : (l.name ?? '')))
        .find((l) => l.startsWith(LABEL_PREFIX))
        ?.slice(LABEL_PREFIX.length) ?? null,
  });

  return {
    source: (s) => `github:${base(s)}/${text(s.owner)}/${text(s.repository)}`.toLowerCase(),
    urls: (s) => (s.api_url ? [{ field: 'api_url', url: String(s.api_url) }] : []),
    async test(c) {
      const call = http(c);
      const user = jsonOf<{ login: string }>(PROVIDER, await call({ url: `${base(c.settings)}/user` }));
      const found = jsonOf<{ permissions?: { push?: boolean } }>(
        PROVIDER,
        await call({ url: repo(c.settings), notFound: 'the repository' }),
      );
      const warnings =
        found.permissions?.push === false ? ['read-only access: estimates cannot be written back'] : [];
      return { account: user.login, warnings };
    },
    async page(c, cursor) {
      const page = Math.max(1, Number(cursor ?? 1) || 1);
      const labels = Array.isArray(c.settings.labels) ? (c.settings.labels as string[]).join(',') : undefined;
      const res = await http(c)({
        url: `${repo(c.settings)}/issues`,
        params: { state: 'open', labels, per_page: PER_PAGE, page },
        notFound: 'the repository',
      });
      const issues = jsonOf<GithubIssue[]>(PROVIDER, res);
      const hasNext = /<[^>]*>;\s*rel="next"/.test(String(res.headers.link ?? ''));
      return {
        // the list holds pull requests too: they are not issues to estimate
        items: issues.filter((i) => !('pull_request' in i)).map((i) => toIssue(c.settings, i)),
        next: hasNext ? String(page + 1) : undefined,
      };
    },
    async fetch(c, ids) {
      const call = http(c);
      const found = [];
      for (const id of ids) {
        if (!/^\d{1,10}$/.test(id)) continue;
        try {
          const issue = jsonOf<GithubIssue>(
            PROVIDER,
            await call({ url: `${repo(c.settings)}/issues/${id}`, notFound: `issue ${id}` }),
          );
          if (!('pull_request' in issue)) found.push(toIssue(c.settings, issue));
        } catch (err) {
          if ((err as { code?: string }).code !== 'provider_not_found') throw err;
        }
      }
      return found;
    },
    async writeEstimate(c, externalId, estimate) {
      if (!/^\d{1,10}$/.test(externalId)) throw new ProviderRejectedError(PROVIDER, 'not an issue number');
      const call = http(c);
      const issue = `${repo(c.settings)}/issues/${externalId}`;
      const modes: Array<'comment' | 'label'> = [];
      const bySetting = c.settings.label_sync === true;
      if (bySetting) {
        const current = jsonOf<GithubIssue>(
          PROVIDER,
          await call({ url: issue, notFound: `issue ${externalId}` }),
        );
        for (const old of toIssue(c.settings, current).labels.filter((l) => l.startsWith(LABEL_PREFIX)))
          await call({ method: 'DELETE', url: `${issue}/labels/${encodeURIComponent(old)}` });
        await call({
          method: 'POST',
          url: `${issue}/labels`,
          data: { labels: [`${LABEL_PREFIX}${estimate}`] },
        });
        modes.push('label');
      }
      if (c.settings.comment_sync === true || (c.settings.comment_sync === undefined && !bySetting)) {
        const value = estimateValue(estimate);
        await call({
          method: 'POST',
          url: `${issue}/comments`,
          data: { body: `Estimated in planning poker: **${value}**` },
          notFound: `issue ${externalId}`,
        });
        modes.push('comment');
      }
      return modes;
    },
  };
}
