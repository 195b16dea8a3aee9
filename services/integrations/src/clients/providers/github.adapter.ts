import type { AxiosResponse } from 'axios';
import { z } from 'zod';
import { estimateValue } from '../../domain/issues.ts';
import { ProviderRejectedError, ProviderUnavailableError } from '../../errors.ts';
import {
  root,
  text,
  tokenOf,
  type AdapterDeps,
  type IssueAdapter,
  type ProviderConnection,
} from './adapter.ts';
import { jsonOf, waitFromHeaders } from './provider-http.ts';

const PROVIDER = 'GitHub';
const DEFAULT_API = 'https://api.github.com';
const PER_PAGE = 100;
const LABEL_PREFIX = 'estimate: ';

const NUMBER = /^\d{1,10}$/;
const SECONDARY_WAIT_MS = 60_000;

/** What the adapter reads of GitHub's answers (see jsonOf: an issue without its number refuses it). */
const githubIssue = z.looseObject({
  number: z.number().int().min(1).max(9_999_999_999),
  title: z.string().nullish(),
  body: z.string().nullish(),
  html_url: z.string().nullish(),
  labels: z.array(z.union([z.string(), z.looseObject({ name: z.string().nullish() })])).nullish(),
  pull_request: z.unknown().optional(),
});
type GithubIssue = z.output<typeof githubIssue>;
const githubUser = z.looseObject({ login: z.string() });
const githubRepository = z.looseObject({
  full_name: z.string(),
  permissions: z.looseObject({ push: z.boolean().optional() }).nullish(),
});
const githubError = z.looseObject({ message: z.string() });
// a write answers what it wrote: the issue's labels (the new one among them), the comment created
const githubLabels = z.array(z.looseObject({ name: z.string() }));
const githubComment = z.looseObject({ id: z.number() });

/**
 * GitHub's answer is a rate limit: 403/429 with no requests left (wait for the reset), or a secondary
 * limit. A header that names no time it can be read as waits as long as a secondary limit.
 */
function githubWait(res: AxiosResponse): number | undefined {
  if (res.status !== 403 && res.status !== 429) return undefined;
  const h = res.headers;
  if (h['retry-after'] !== undefined)
    return waitFromHeaders({ 'retry-after': h['retry-after'] }) ?? SECONDARY_WAIT_MS;
  if (h['x-ratelimit-remaining'] === '0' && h['x-ratelimit-reset'] !== undefined)
    return waitFromHeaders({ 'x-ratelimit-reset': h['x-ratelimit-reset'] }) ?? SECONDARY_WAIT_MS;
  const message = githubError.safeParse(res.data).data?.message ?? '';
  return /secondary rate limit/i.test(message) || res.status === 429 ? SECONDARY_WAIT_MS : undefined;
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
  const labelsOf = (i: GithubIssue) =>
    (i.labels ?? []).map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean);
  const toIssue = (i: GithubIssue) => ({
    externalId: String(i.number),
    title: i.title ?? '',
    description: i.body ?? '',
    acceptanceCriteria: '',
    url: i.html_url ?? null,
    labels: labelsOf(i),
    estimate:
      labelsOf(i)
        .find((l) => l.startsWith(LABEL_PREFIX))
        ?.slice(LABEL_PREFIX.length) ?? null,
  });
  // the lists hold pull requests too: they are not issues to estimate
  const isIssue = (i: GithubIssue) => i.pull_request === undefined;

  return {
    source: (s) => `github:${base(s)}/${text(s.owner)}/${text(s.repository)}`.toLowerCase(),
    idOf: (id) => (NUMBER.test(id) ? String(Number(id)) : id),
    urls: (s) => (s.api_url ? [{ field: 'api_url', url: String(s.api_url) }] : []),
    async test(c) {
      const call = http(c);
      const user = jsonOf(PROVIDER, await call({ url: `${base(c.settings)}/user` }), githubUser);
      const found = jsonOf(
        PROVIDER,
        await call({ url: repo(c.settings), notFound: 'the repository' }),
        githubRepository,
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
      const issues = jsonOf(PROVIDER, res, z.array(githubIssue));
      const hasNext = /<[^>]*>;\s*rel="next"/.test(String(res.headers.link ?? ''));
      return {
        items: issues.filter(isIssue).map(toIssue),
        next: hasNext ? String(page + 1) : undefined,
      };
    },
    async fetch(c, ids) {
      const call = http(c);
      const found = [];
      for (const id of ids) {
        if (!NUMBER.test(id)) continue;
        try {
          const issue = jsonOf(
            PROVIDER,
            await call({ url: `${repo(c.settings)}/issues/${id}`, notFound: `issue ${id}` }),
            githubIssue,
          );
          if (isIssue(issue)) found.push(toIssue(issue));
        } catch (err) {
          if ((err as { code?: string }).code !== 'provider_not_found') throw err;
        }
      }
      return found;
    },
    async writeEstimate(c, externalId, estimate) {
      if (!NUMBER.test(externalId)) throw new ProviderRejectedError(PROVIDER, 'not an issue number');
      const call = http(c);
      const issue = `${repo(c.settings)}/issues/${externalId}`;
      const modes: Array<'comment' | 'label'> = [];
      const bySetting = c.settings.label_sync === true;
      if (bySetting) {
        const current = jsonOf(
          PROVIDER,
          await call({ url: issue, notFound: `issue ${externalId}` }),
          githubIssue,
        );
        // A label gone since the read (404 Label does not exist) is as good as removed; a gone issue
        // is told by the write that follows.
        for (const old of labelsOf(current).filter((l) => l.startsWith(LABEL_PREFIX)))
          await call({ method: 'DELETE', url: `${issue}/labels/${encodeURIComponent(old)}`, pass: [404] });
        const label = `${LABEL_PREFIX}${estimate}`;
        const res = await call({ method: 'POST', url: `${issue}/labels`, data: { labels: [label] } });
        if (!jsonOf(PROVIDER, res, githubLabels).some((l) => l.name === label))
          throw new ProviderRejectedError(PROVIDER, `the issue does not carry the label ${label}`);
        modes.push('label');
      }
      if (c.settings.comment_sync === true || (c.settings.comment_sync === undefined && !bySetting)) {
        const value = estimateValue(estimate);
        const res = await call({
          method: 'POST',
          url: `${issue}/comments`,
          data: { body: `Estimated in planning poker: **${value}**` },
          notFound: `issue ${externalId}`,
        });
        // a comment is created with 201 and comes back
        if (res.status !== 201)
          throw new ProviderUnavailableError(PROVIDER, { status: res.status, expected: 201 });
        jsonOf(PROVIDER, res, githubComment);
        modes.push('comment');
      }
      return modes;
    },
  };
}
