import type { ServiceName } from '@pp/config';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** `public`: no token needed (one is used when valid). `token`: a valid bearer token or 401. */
export type Access = 'public' | 'token';

export interface RouteEntry {
  method: HttpMethod;
  /** OpenAPI-style template: `/sessions/{code}`. */
  path: string;
  unit: ServiceName;
  access: Access;
  summary: string;
  /** The status of success (201 for creation). */
  success?: number;
  /** A long-lived response (Server-Sent Events): no upstream timeout, never buffered. */
  stream?: boolean;
}

const route =
  (unit: ServiceName) =>
  (
    method: HttpMethod,
    path: string,
    access: Access,
    summary: string,
    extra: Partial<RouteEntry> = {},
  ): RouteEntry => ({
    method,
    path,
    unit,
    access,
    summary,
    ...extra,
  });
const identity = route('identity');
const sessions = route('sessions');
const stories = route('stories');
const ai = route('ai');
const integrations = route('integrations');
const webhooks = route('webhooks');
const mcp = route('mcp');
const CREATED = { success: 201 };
const ACCEPTED = { success: 202 };

const aiEndpoints: Array<[string, string]> = [
  ['summary', 'Session summary'],
  ['analyze-current-story', 'Analyse the current story (clarity, INVEST)'],
  ['draft-stories', 'Draft stories from a brief'],
  ['improve-current-story', 'Improve the current story'],
  ['generate-acceptance-criteria', 'Acceptance criteria (Given/When/Then)'],
  ['split-current-story', 'Split the current story'],
  ['estimate-assistant', 'Suggested estimate from similar stories'],
  ['estimation-report', 'Estimation report of the session'],
];

/**
 * THE route table: every public path of the API, the unit
 * that serves it and whether it needs a token. Nothing outside it is proxied; `/internal/*` never is.
 * Each path is also described by its unit (`src/api/docs.ts`: `public`, its success status):
 * `e2e/route-table.test.ts` fails on any difference, so a path is declared here and there alike.
 */
export const routeTable: readonly RouteEntry[] = [
  // identity
  identity('POST', '/auth/register', 'public', 'Create an account', CREATED),
  identity('POST', '/auth/login', 'public', 'Sign in with email and password'),
  identity('GET', '/auth/me', 'token', 'The signed-in user'),
  identity('POST', '/auth/tokens', 'token', 'Create an API or MCP token', CREATED),
  identity('GET', '/auth/tokens', 'token', "The caller's API and MCP tokens"),
  identity('DELETE', '/auth/tokens/{id}', 'token', 'Revoke a token'),
  identity('GET', '/auth/oauth/providers', 'public', 'Configured social sign-on providers'),
  identity('GET', '/auth/oauth/{provider}/start', 'public', 'Begin social sign-on', { success: 302 }),
  identity('GET', '/auth/oauth/{provider}/callback', 'public', 'Finish social sign-on'),

  // sessions, participants, votes, live room
  sessions('GET', '/sessions', 'token', "The caller's sessions (paginated)"),
  sessions('POST', '/sessions', 'token', 'Create a session', CREATED),
  sessions('GET', '/sessions/{code}', 'public', 'Look a session up by code (full record for its owner)'),
  sessions('PATCH', '/sessions/{code}', 'token', 'Update, archive or unarchive a session'),
  sessions('POST', '/sessions/{code}/join', 'public', 'Join a session'),
  sessions('POST', '/sessions/{code}/vote', 'public', 'Cast a vote on the current story'),
  sessions('GET', '/sessions/{code}/participants', 'public', 'Participants of a session'),
  sessions('PATCH', '/sessions/{code}/participants/{id}', 'token', "Change a participant's role"),
  sessions('DELETE', '/sessions/{code}/participants/{id}', 'token', 'Remove a participant'),
  sessions(
    'GET',
    '/sessions/{code}/room',
    'public',
    'The whole room in one read, and where its stream resumes',
  ),
  sessions('GET', '/sessions/{code}/events', 'public', 'Live room: Server-Sent Events stream', {
    stream: true,
  }),
  sessions('GET', '/sessions/{code}/activity', 'token', 'Recent events of a session (owner)'),
  sessions('POST', '/sessions/{code}/countdown', 'token', 'Start a countdown for the open round (owner)'),
  sessions('DELETE', '/sessions/{code}/countdown', 'token', "Stop the open round's countdown (owner)"),

  // folders, workspace, templates
  sessions('GET', '/folders', 'token', "The caller's folders"),
  sessions('POST', '/folders', 'token', 'Create a folder', CREATED),
  sessions('GET', '/folders/{id}', 'token', 'A folder'),
  sessions('PATCH', '/folders/{id}', 'token', 'Rename or recolour a folder'),
  sessions('DELETE', '/folders/{id}', 'token', 'Delete a folder (its sessions stay)'),
  sessions('GET', '/workspace', 'token', "The caller's workspace"),
  sessions('PATCH', '/workspace', 'token', 'Update the workspace name and defaults'),
  sessions('GET', '/workspace/templates', 'token', 'Room templates'),
  sessions('POST', '/workspace/templates', 'token', 'Create a room template', CREATED),
  sessions('GET', '/workspace/templates/{template}', 'token', 'A room template'),
  sessions('PATCH', '/workspace/templates/{template}', 'token', 'Update a room template'),
  sessions('DELETE', '/workspace/templates/{template}', 'token', 'Delete a room template'),
  sessions(
    'POST',
    '/workspace/templates/{template}/sessions',
    'token',
    'Create a session from a template',
    CREATED,
  ),

  // MCP, Streamable HTTP transport
  mcp('POST', '/mcp', 'token', 'MCP server (Streamable HTTP): JSON-RPC messages'),
  mcp('GET', '/mcp', 'token', 'MCP server (Streamable HTTP): no server-to-client stream (stateless)'),
  mcp('DELETE', '/mcp', 'token', 'MCP server (Streamable HTTP): no MCP session to end (stateless)'),

  // stories, reveal, analytics
  stories('GET', '/sessions/{code}/stories', 'public', "The room's view of the stories"),
  stories('POST', '/sessions/{code}/stories', 'token', 'Add a story', CREATED),
  stories('POST', '/sessions/{code}/quick-vote', 'token', 'Start a round without a prepared story', CREATED),
  stories('GET', '/stories/{story}', 'token', 'A story'),
  stories('PATCH', '/stories/{story}', 'token', 'Update a story'),
  stories('DELETE', '/stories/{story}', 'token', 'Delete a story'),
  stories('POST', '/stories/{story}/reveal', 'token', 'Reveal the votes and compute the consensus'),
  stories('POST', '/stories/{story}/reset', 'token', 'Clear the votes and vote again'),
  stories('POST', '/stories/{story}/activate', 'token', 'Make this the current story'),
  stories('GET', '/sessions/{code}/analytics', 'token', 'Estimate distribution, outliers and history'),
  stories('GET', '/sessions/{code}/export', 'token', 'Export stories and votes (csv or json)'),

  // AI suggestions
  ...aiEndpoints.map(([name, summary]) => ai('POST', `/sessions/{code}/ai/${name}`, 'token', summary)),

  // integrations
  integrations('GET', '/integrations/providers', 'token', 'Import and notification providers'),
  integrations('GET', '/integrations/oauth/{provider}/start', 'token', 'Begin an OAuth connection', {
    success: 302,
  }),
  integrations(
    'GET',
    '/integrations/oauth/{provider}/callback',
    'public',
    'OAuth callback of a connection',
    CREATED,
  ),
  integrations('GET', '/integrations/connections', 'token', 'Connections'),
  integrations('POST', '/integrations/connections', 'token', 'Create a connection', CREATED),
  integrations('PATCH', '/integrations/connections/{connection}', 'token', 'Update a connection'),
  integrations('DELETE', '/integrations/connections/{connection}', 'token', 'Delete a connection'),
  integrations('POST', '/integrations/connections/{connection}/test', 'token', 'Test a connection'),
  integrations('POST', '/integrations/import-preview', 'token', 'Preview issues from a source'),
  integrations(
    'POST',
    '/sessions/{code}/integrations/import-confirm',
    'token',
    'Import issues into a session',
    CREATED,
  ),
  integrations(
    'POST',
    '/sessions/{code}/integrations/sync-estimates',
    'token',
    'Write final estimates back to the source',
  ),
  integrations('GET', '/integrations/sync-logs', 'token', 'Sync logs, newest first'),

  // webhooks
  webhooks('GET', '/webhooks', 'token', 'Registered webhooks'),
  webhooks('POST', '/webhooks', 'token', 'Register a webhook (the secret is shown once)', CREATED),
  webhooks('GET', '/webhooks/{id}', 'token', 'A webhook'),
  webhooks('PATCH', '/webhooks/{id}', 'token', 'Update or re-enable a webhook'),
  webhooks('DELETE', '/webhooks/{id}', 'token', 'Delete a webhook'),
  webhooks('GET', '/webhooks/{id}/deliveries', 'token', 'Delivery attempts'),
  webhooks('POST', '/webhooks/{id}/test', 'token', 'Send a test delivery', ACCEPTED),
  webhooks('POST', '/webhooks/{id}/deliveries/{delivery}/redeliver', 'token', 'Deliver again', ACCEPTED),
];
