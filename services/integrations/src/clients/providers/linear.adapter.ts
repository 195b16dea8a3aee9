import type { AxiosResponse } from 'axios';
import { estimateValue, type ExternalIssue } from '../../domain/issues.ts';
import { ProviderAuthError, ProviderRejectedError } from '../../errors.ts';
import { root, text, type AdapterDeps, type IssueAdapter, type ProviderConnection } from './adapter.ts';
import { jsonOf, waitFromHeaders } from './provider-http.ts';

const PROVIDER = 'Linear';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ISSUE_FIELDS = `id identifier title description url estimate labels { nodes { id name } } state { name type } team { key }`;
export const ISSUES_QUERY = `query Issues($filter: IssueFilter, $after: String) {
  issues(filter: $filter, first: 50, after: $after, orderBy: updatedAt) {
    nodes { ${ISSUE_FIELDS} }
    pageInfo { hasNextPage endCursor } } }`;
const ISSUE_QUERY = `query Issue($id: String!) { issue(id: $id) { ${ISSUE_FIELDS} } }`;
const VIEWER_QUERY = `{ viewer { id name email } organization { id name urlKey } }`;
const ESTIMATION_QUERY = `query Estimation($id: String!) { issue(id: $id) { id team { issueEstimationType } } }`;
const ESTIMATE_MUTATION = `mutation($id:String!,$e:Int){ issueUpdate(id:$id,input:{estimate:$e}){ success issue{ id estimate } } }`;
const COMMENT_MUTATION = `mutation($issueId:String!,$body:String!){ commentCreate(input:{issueId:$issueId, body:$body}){ success } }`;

interface LinearIssue {
  id: string;
  identifier: string;
  title: string;
  description: string | null;
  url: string;
  estimate: number | null;
  labels: { nodes: Array<{ name: string }> };
}
interface GraphqlAnswer<T> {
  data?: T;
  errors?: Array<{ message?: string; extensions?: { code?: string } }>;
}

/** Linear rate limits arrive as a GraphQL error RATELIMITED, usually with HTTP 400 (sometimes 429 or 200). */
function linearWait(res: AxiosResponse): number | undefined {
  const errors = (res.data as GraphqlAnswer<unknown> | undefined)?.errors;
  if (!errors?.some((e) => e.extensions?.code === 'RATELIMITED')) return undefined;
  return waitFromHeaders(res.headers) ?? 60_000;
}

/** The filter of the connection's settings: team (id or key), project, state (default: not done or canceled). */
function filterOf(s: Record<string, unknown>) {
  const filter: Record<string, unknown> = {};
  const team = text(s.team_id);
  if (team) filter.team = UUID.test(team) ? { id: { eq: team } } : { key: { eq: team } };
  if (text(s.project_id)) filter.project = { id: { eq: text(s.project_id) } };
  filter.state = text(s.state)
    ? { name: { eq: text(s.state) } }
    : { type: { nin: ['completed', 'canceled'] } };
  return filter;
}

/** Linear's GraphQL API: an API key as is in Authorization, an OAuth token as Bearer. */
export function linearAdapter(deps: AdapterDeps): IssueAdapter {
  const endpoint = `${root(deps.apiUrl)}/graphql`;
  async function gql<T>(
    c: ProviderConnection,
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<T> {
    const call = deps.http({
      connectionId: c.id,
      rateLimit: { waitMs: linearWait },
      auth: async () => {
        const creds = await c.credentials();
        return { Authorization: creds.access_token ? `Bearer ${creds.access_token}` : (creds.token ?? '') };
      },
    });
    const res = await call({ method: 'POST', url: endpoint, data: { query, variables }, pass: [400] });
    const body = jsonOf<GraphqlAnswer<T>>(PROVIDER, res);
    const error = body.errors?.[0];
    if (error) {
      // every other GraphQL error can come with HTTP 200: always read errors[]
      if (error.extensions?.code === 'AUTHENTICATION_ERROR') throw new ProviderAuthError(PROVIDER);
      throw new ProviderRejectedError(
        PROVIDER,
        String(error.message ?? error.extensions?.code ?? 'GraphQL error').slice(0, 200),
      );
    }
    return body.data as T;
  }
  const toIssue = (i: LinearIssue): ExternalIssue => ({
    externalId: i.identifier,
    title: i.title,
    description: i.description ?? '',
    acceptanceCriteria: '',
    url: i.url,
    labels: i.labels.nodes.map((l) => l.name),
    estimate: i.estimate === null ? null : String(i.estimate),
  });
  return {
    source: () => 'linear',
    urls: () => [],
    async test(c) {
      const data = await gql<{ viewer: { name: string; email?: string } }>(c, VIEWER_QUERY);
      return { account: data.viewer.email ?? data.viewer.name, warnings: [] };
    },
    async page(c, cursor) {
      const data = await gql<{
        issues: { nodes: LinearIssue[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
      }>(c, ISSUES_QUERY, { filter: filterOf(c.settings), after: cursor ?? null });
      const { nodes, pageInfo } = data.issues;
      return {
        items: nodes.map(toIssue),
        next: pageInfo.hasNextPage && pageInfo.endCursor ? pageInfo.endCursor : undefined,
      };
    },
    async fetch(c, ids) {
      const found: ExternalIssue[] = [];
      for (const id of ids.filter((i) => /^[A-Za-z0-9_-]{1,64}$/.test(i))) {
        const data = await gql<{ issue: LinearIssue | null }>(c, ISSUE_QUERY, { id }).catch(
          (err: { code?: string }) => {
            if (err.code === 'provider_rejected') return { issue: null };
            throw err;
          },
        );
        if (data.issue) found.push(toIssue(data.issue));
      }
      return found;
    },
    async writeEstimate(c, id, estimate) {
      const value = estimateValue(estimate);
      const { issue } = await gql<{ issue: { id: string; team: { issueEstimationType: string } } }>(
        c,
        ESTIMATION_QUERY,
        { id },
      );
      // the estimate is an Int that must fit the team's scale; a team that does not estimate gets a comment
      if (issue.team.issueEstimationType !== 'notUsed' && Number.isInteger(value)) {
        await gql(c, ESTIMATE_MUTATION, { id: issue.id, e: value });
        return ['field'];
      }
      await gql(c, COMMENT_MUTATION, {
        issueId: issue.id,
        body: `Estimated in planning poker: **${estimate}**`,
      });
      return ['comment'];
    },
  };
}
