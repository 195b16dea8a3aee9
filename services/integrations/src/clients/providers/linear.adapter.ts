import type { AxiosResponse } from 'axios';
import { z } from 'zod';
import { estimateValue, type ExternalIssue } from '../../domain/issues.ts';
import { ProviderAuthError, ProviderRejectedError } from '../../errors.ts';
import { root, text, type AdapterDeps, type IssueAdapter, type ProviderConnection } from './adapter.ts';
import { jsonOf, valueAs, waitFromHeaders } from './provider-http.ts';

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

const IDENTIFIER = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * What the adapter reads of Linear's answers (see jsonOf: an issue without its identifier refuses the
 * answer). A GraphQL answer is its `data` and `errors`; `data` is read by the schema of its query.
 */
const graphqlAnswer = z.looseObject({
  data: z.unknown().optional(),
  errors: z
    .array(
      z.looseObject({
        message: z.string().nullish(),
        extensions: z.looseObject({ code: z.string().nullish() }).nullish(),
      }),
    )
    .nullish(),
});
const linearIssue = z.looseObject({
  id: z.string(),
  identifier: z.string().regex(IDENTIFIER),
  title: z.string().nullish(),
  description: z.string().nullish(),
  url: z.string().nullish(),
  estimate: z.number().nullish(),
  labels: z.looseObject({ nodes: z.array(z.looseObject({ name: z.string() })) }).nullish(),
});
type LinearIssue = z.output<typeof linearIssue>;
const viewerData = z.looseObject({
  viewer: z.looseObject({ name: z.string(), email: z.string().nullish() }),
});
const issuesData = z.looseObject({
  issues: z.looseObject({
    nodes: z.array(linearIssue),
    pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
  }),
});
const issueData = z.looseObject({ issue: linearIssue.nullable() });
const estimationData = z.looseObject({
  issue: z.looseObject({
    id: z.string(),
    team: z.looseObject({ issueEstimationType: z.string() }),
  }),
});
// a mutation that wrote nothing answers HTTP 200 with `success: false` and no errors[]
const estimateUpdated = z.looseObject({ issueUpdate: z.looseObject({ success: z.boolean() }) });
const commentCreated = z.looseObject({ commentCreate: z.looseObject({ success: z.boolean() }) });

/** Linear rate limits arrive as a GraphQL error RATELIMITED, usually with HTTP 400 (sometimes 429 or 200). */
function linearWait(res: AxiosResponse): number | undefined {
  const errors = graphqlAnswer.safeParse(res.data).data?.errors;
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
  async function gql<S extends z.ZodType>(
    c: ProviderConnection,
    query: string,
    variables: Record<string, unknown>,
    data: S,
  ): Promise<z.output<S>> {
    const call = deps.http({
      connectionId: c.id,
      rateLimit: { waitMs: linearWait },
      auth: async () => {
        const creds = await c.credentials();
        return { Authorization: creds.access_token ? `Bearer ${creds.access_token}` : (creds.token ?? '') };
      },
    });
    const res = await call({ method: 'POST', url: endpoint, data: { query, variables }, pass: [400] });
    const body = jsonOf(PROVIDER, res, graphqlAnswer);
    const error = body.errors?.[0];
    if (error) {
      // every other GraphQL error can come with HTTP 200: always read errors[]
      if (error.extensions?.code === 'AUTHENTICATION_ERROR') throw new ProviderAuthError(PROVIDER);
      throw new ProviderRejectedError(
        PROVIDER,
        String(error.message ?? error.extensions?.code ?? 'GraphQL error').slice(0, 200),
      );
    }
    return valueAs(PROVIDER, body.data, data);
  }
  const toIssue = (i: LinearIssue): ExternalIssue => ({
    externalId: i.identifier,
    title: i.title ?? '',
    description: i.description ?? '',
    acceptanceCriteria: '',
    url: i.url ?? null,
    labels: (i.labels?.nodes ?? []).map((l) => l.name),
    estimate: i.estimate === null || i.estimate === undefined ? null : String(i.estimate),
  });
  return {
    source: () => 'linear',
    idOf: (id) => id,
    urls: () => [],
    async test(c) {
      const data = await gql(c, VIEWER_QUERY, {}, viewerData);
      return { account: data.viewer.email ?? data.viewer.name, warnings: [] };
    },
    async page(c, cursor) {
      const data = await gql(
        c,
        ISSUES_QUERY,
        { filter: filterOf(c.settings), after: cursor ?? null },
        issuesData,
      );
      const { nodes, pageInfo } = data.issues;
      return {
        items: nodes.map(toIssue),
        next: pageInfo.hasNextPage && pageInfo.endCursor ? pageInfo.endCursor : undefined,
      };
    },
    async fetch(c, ids) {
      const found: ExternalIssue[] = [];
      for (const id of ids.filter((i) => IDENTIFIER.test(i))) {
        const data = await gql(c, ISSUE_QUERY, { id }, issueData).catch((err: { code?: string }) => {
          if (err.code === 'provider_rejected') return { issue: null };
          throw err;
        });
        if (data.issue) found.push(toIssue(data.issue));
      }
      return found;
    },
    async writeEstimate(c, id, estimate) {
      const value = estimateValue(estimate);
      const { issue } = await gql(c, ESTIMATION_QUERY, { id }, estimationData);
      // the estimate is an Int that must fit the team's scale; a team that does not estimate gets a comment
      if (issue.team.issueEstimationType !== 'notUsed' && Number.isInteger(value)) {
        const { issueUpdate } = await gql(c, ESTIMATE_MUTATION, { id: issue.id, e: value }, estimateUpdated);
        if (!issueUpdate.success) throw new ProviderRejectedError(PROVIDER, 'issueUpdate did not succeed');
        return ['field'];
      }
      const { commentCreate } = await gql(
        c,
        COMMENT_MUTATION,
        { issueId: issue.id, body: `Estimated in planning poker: **${estimate}**` },
        commentCreated,
      );
      if (!commentCreate.success) throw new ProviderRejectedError(PROVIDER, 'commentCreate did not succeed');
      return ['comment'];
    },
  };
}
