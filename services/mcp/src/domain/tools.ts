/**
 * The API as MCP tools: each tool is one public endpoint of a unit (or two, for a CSV import), called
 * as the caller, so what a tool may do is exactly what the caller may do over HTTP. A tool's inputs
 * are the endpoint's own: its body (or query) as the unit describes it, and its path's parameters as
 * named inputs (`code` for a session, `story_id` for a story).
 */
import type { ApiPath } from '@pp/api-client';

export type Unit = 'sessions' | 'stories' | 'ai' | 'integrations';

export interface EndpointTool {
  kind: 'endpoint';
  name: string;
  title: string;
  description: string;
  unit: Unit;
  method: 'GET' | 'POST' | 'DELETE';
  /** The endpoint as the API documents it, e.g. `/sessions/{code}/stories` (a path of the typed client). */
  path: ApiPath;
  /** The tool input that fills each of the path's parameters. */
  pathInputs: Record<string, string>;
  /** Where the rest of the input goes. */
  rest: 'body' | 'query' | 'none';
  readOnly: boolean;
}

/** Tools that are more than one call: looking a session up by code or id, importing a CSV. */
export interface CompositeTool {
  kind: 'get_session' | 'import_csv';
  name: string;
  title: string;
  description: string;
  readOnly: boolean;
}

export type ToolSpec = EndpointTool | CompositeTool;

const CODE = { code: 'code' };
const STORY = { story: 'story_id' };

const endpoint = (
  name: string,
  title: string,
  description: string,
  spec: Omit<EndpointTool, 'kind' | 'name' | 'title' | 'description'>,
): EndpointTool => ({ kind: 'endpoint', name, title, description, ...spec });

type AiRoute = ApiPath extends infer P ? (P extends `/sessions/{code}/ai/${infer R}` ? R : never) : never;

const ai = (name: string, route: AiRoute, title: string, description: string): EndpointTool =>
  endpoint(name, title, `${description} A suggestion only: nothing is changed until you apply it.`, {
    unit: 'ai',
    method: 'POST',
    path: `/sessions/{code}/ai/${route}`,
    pathInputs: CODE,
    rest: 'body',
    readOnly: true,
  });

export const tools: readonly ToolSpec[] = [
  endpoint(
    'create_session',
    'Create a session',
    'Creates a planning poker session you own; returns it with its join code.',
    {
      unit: 'sessions',
      method: 'POST',
      path: '/sessions',
      pathInputs: {},
      rest: 'body',
      readOnly: false,
    },
  ),
  endpoint(
    'list_sessions',
    'List your sessions',
    'Your sessions, newest first unless sorted otherwise, a page at a time.',
    {
      unit: 'sessions',
      method: 'GET',
      path: '/sessions',
      pathInputs: {},
      rest: 'query',
      readOnly: true,
    },
  ),
  {
    kind: 'get_session',
    name: 'get_session',
    title: 'Get a session',
    description:
      'A session by its 6-character code or its id: every field for its owner, with the current story.',
    readOnly: true,
  },
  endpoint(
    'add_story',
    'Add a story',
    "Adds a story at the end of a session's queue; the first one is open for voting at once.",
    {
      unit: 'stories',
      method: 'POST',
      path: '/sessions/{code}/stories',
      pathInputs: CODE,
      rest: 'body',
      readOnly: false,
    },
  ),
  endpoint(
    'set_current_story',
    'Set the current story',
    'Makes a story the one open for voting (the previous one keeps its votes).',
    {
      unit: 'stories',
      method: 'POST',
      path: '/stories/{story}/activate',
      pathInputs: STORY,
      rest: 'none',
      readOnly: false,
    },
  ),
  endpoint(
    'reveal_votes',
    'Reveal the votes',
    "Reveals a story's votes and computes the final estimate; the next story opens.",
    {
      unit: 'stories',
      method: 'POST',
      path: '/stories/{story}/reveal',
      pathInputs: STORY,
      rest: 'none',
      readOnly: false,
    },
  ),
  endpoint(
    'start_quick_vote',
    'Start a quick vote',
    'Opens a round at once without a prepared story: a story titled "Quick vote HH:MM" (or `title`) is added and made the current one; the story that was current keeps its votes.',
    {
      unit: 'stories',
      method: 'POST',
      path: '/sessions/{code}/quick-vote',
      pathInputs: CODE,
      rest: 'body',
      readOnly: false,
    },
  ),
  endpoint(
    'start_countdown',
    'Start a countdown',
    "Starts a countdown of `seconds` (5-3600) for the current story's round, seen by everyone in the room; at zero the round is revealed (`at_zero: reveal`) or closed to votes (`close`). Starting one again replaces it.",
    {
      unit: 'sessions',
      method: 'POST',
      path: '/sessions/{code}/countdown',
      pathInputs: CODE,
      rest: 'body',
      readOnly: false,
    },
  ),
  endpoint(
    'stop_countdown',
    'Stop the countdown',
    "Stops the current round's countdown; the round goes on without one (`stopped` is false when there was none).",
    {
      unit: 'sessions',
      method: 'DELETE',
      path: '/sessions/{code}/countdown',
      pathInputs: CODE,
      rest: 'none',
      readOnly: false,
    },
  ),
  endpoint(
    'get_activity',
    'Recent activity',
    "A session's recent events: joins, votes (never their values), stories, reveals.",
    {
      unit: 'sessions',
      method: 'GET',
      path: '/sessions/{code}/activity',
      pathInputs: CODE,
      rest: 'query',
      readOnly: true,
    },
  ),
  endpoint('get_analytics', 'Analytics', "A session's estimate distribution, outliers, history and totals.", {
    unit: 'stories',
    method: 'GET',
    path: '/sessions/{code}/analytics',
    pathInputs: CODE,
    rest: 'none',
    readOnly: true,
  }),
  {
    kind: 'import_csv',
    name: 'import_csv',
    title: 'Import stories from CSV',
    description:
      'Imports the rows of a CSV text (a header row; title required; description, acceptance_criteria, external_id, url, labels optional) as stories of a session, in order.',
    readOnly: false,
  },
  ai(
    'ai_summary',
    'summary',
    'AI: session summary',
    'A summary of the session: highlights, risks, next steps.',
  ),
  ai(
    'ai_analyze_story',
    'analyze-current-story',
    'AI: analyze a story',
    'Clarity score, issues, questions and INVEST flags of a story (the current one by default).',
  ),
  ai(
    'ai_draft_stories',
    'draft-stories',
    'AI: draft stories',
    'Stories drafted from a short brief (`text`).',
  ),
  ai(
    'ai_improve_story',
    'improve-current-story',
    'AI: improve a story',
    'A clearer title and description in user-story form, with the rationale.',
  ),
  ai(
    'ai_acceptance_criteria',
    'generate-acceptance-criteria',
    'AI: acceptance criteria',
    'Given/When/Then acceptance criteria for a story, a failure path included.',
  ),
  ai(
    'ai_split_story',
    'split-current-story',
    'AI: split a story',
    'A story split into smaller ones, each valuable on its own.',
  ),
  ai(
    'ai_estimate',
    'estimate-assistant',
    'AI: estimate assistant',
    'A suggested estimate from similar revealed stories, with the confidence and the reasoning.',
  ),
  ai(
    'ai_estimation_report',
    'estimation-report',
    'AI: estimation report',
    "A report on the session's estimates: agreement, outliers, recommendations.",
  ),
];
