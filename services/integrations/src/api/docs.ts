import { z } from 'zod';
import { pageMetaSchema, type UnitDocs } from '@pp/http';
import {
  codeParams,
  confirmBody,
  connection,
  connectionParams,
  createConnectionBody,
  importedStory,
  issue,
  oauthCallbackQuery,
  oauthStartQuery,
  previewBody,
  provider,
  providerParams,
  sync,
  syncBody,
  syncLog,
  syncLogsQuery,
  updateConnectionBody,
} from './schemas.ts';

const NOT_YOURS = { 403: { description: "Someone else's connection or session (`forbidden`)" } };
const NO_CONNECTION = { 404: { description: 'Unknown connection (`connection_not_found`)' } };
const NO_SESSION = { 404: { description: 'Unknown session code (`session_not_found`)' } };
const TRACKER_ERRORS = {
  409: { description: 'The provider refused the OAuth grant: connect again (`needs_reconnection`)' },
  422: {
    description:
      'Invalid fields; or the tracker refused the credentials (`provider_auth_failed`), does not show the project ' +
      '(`provider_not_found`) or refused the request (`provider_rejected`); or an address is refused (private, ' +
      'link-local or metadata addresses; plain http unless private targets are allowed)',
  },
  503: {
    description:
      'The tracker is rate limiting (`provider_rate_limited`, with Retry-After), or did not answer in time or ' +
      'as expected (`provider_unavailable`: a 5xx, or an answer that is not JSON or not of the shape its API ' +
      'documents); or another unit of the platform is down',
  },
};

/** The description of each public path, keyed "METHOD /path" like the gateway's route table. */
export const integrationsApi = {
  'GET /integrations/providers': {
    summary: 'Import and notification providers, with their fields',
    description:
      "Fields marked `secret` go in a connection's `credentials` (encrypted at rest with AES-256-GCM, never returned); " +
      "the others in its `settings`. A provider's `oauth` sign-in is available when the platform has its OAuth app.",
    responses: {
      200: { description: 'Every provider', payload: z.object({ providers: z.array(provider) }) },
    },
  },
  'GET /integrations/oauth/{provider}/start': {
    summary: "Begin an OAuth connection (302 to the provider, or the provider's link as JSON)",
    description:
      'Redirects to the provider with a `state` that is random, signed for the caller and provider, usable once ' +
      'within 10 minutes, and a PKCE (S256) challenge where the provider takes one (GitHub, Linear, Azure DevOps). ' +
      'It sets a cookie (HttpOnly, SameSite=Lax, sent to the callback only, kept as long as the state) that binds ' +
      'the state to this browser: the connection must be started and finished in the same browser (the one that ' +
      "got this answer, and so the cookie, must be the one that opens the provider's page and comes back). " +
      'A browser page, which signs its calls with a bearer token and so cannot navigate here, asks with ' +
      '`Accept: application/json`: the answer is then a 200 with `authorization_url` (and the same cookie, which ' +
      'its fetch keeps), and the page opens that link itself. ' +
      'A client without a browser connects with a token instead (POST /integrations/connections). ' +
      '422 `oauth_not_configured` when the platform has no OAuth app for the provider (connect with a token).',
    params: providerParams,
    query: oauthStartQuery,
    responses: {
      200: {
        description: "The provider's consent page, to open (asked with `Accept: application/json`)",
        payload: z.object({ authorization_url: z.url() }),
        headers: { 'Set-Cookie': 'The cookie binding the state to this browser' },
      },
      302: {
        description: "To the provider's consent page (also named in the body)",
        payload: z.object({ authorization_url: z.url() }),
        headers: {
          Location: "The provider's authorize URL",
          'Set-Cookie': 'The cookie binding the state to this browser',
        },
      },
      422: { description: 'Unknown provider, one without OAuth, or `oauth_not_configured`' },
    },
  },
  'GET /integrations/oauth/{provider}/callback': {
    public: true,
    summary: 'OAuth callback: stores the connection',
    description:
      'The provider sends the browser back here with `code` and `state`. The connection must be started and finished ' +
      'in the same browser (a client without a browser connects with a token instead, POST /integrations/connections): ' +
      'the state is accepted with the cookie start set in that browser, and refused (400 `invalid_oauth_state`) ' +
      "without it or with another browser's, so the provider's link of someone else's connection, opened in your " +
      "browser, stores nothing (and never your tracker's token in their account). The cookie is cleared. Brought by " +
      'that browser, the state is used up whatever happens; when the request carries a token, it must be the one of ' +
      'the user who started. The tokens are encrypted; ' +
      'access tokens are refreshed one at a time per connection, rotated refresh tokens are kept, and a refused ' +
      'refresh marks the connection `needs_reconnection`. Settings the provider needs (owner and repository, JQL...) ' +
      'are set afterwards with PATCH.',
    params: providerParams,
    query: oauthCallbackQuery,
    responses: {
      201: { description: 'The new connection', payload: z.object({ connection }) },
      400: {
        description:
          'Unknown, used, expired or foreign state, or one brought by another browser than the one that started ' +
          '(`invalid_oauth_state`)',
      },
      ...TRACKER_ERRORS,
    },
  },
  'GET /integrations/connections': {
    summary: "The caller's connections",
    responses: {
      200: { description: 'Oldest first', payload: z.object({ connections: z.array(connection) }) },
    },
  },
  'POST /integrations/connections': {
    summary: 'Create a connection with credentials',
    description:
      "`credentials` and `settings` take the provider's fields only. Addresses (`api_url`, `site_url`, " +
      "`organization_url`, a webhook's `url`, Slack's `webhook_url`) must be https and public: private, " +
      'loopback, link-local and metadata addresses are refused (422 naming the field), and every later call ' +
      'checks the address it connects to again. An account has at most 100 connections ' +
      '(`409 too_many_connections`, here and at the OAuth callback).',
    body: createConnectionBody,
    responses: {
      201: { description: 'The connection', payload: z.object({ connection }) },
      409: { description: 'The account has 100 connections already (`too_many_connections`)' },
      422: TRACKER_ERRORS[422],
    },
  },
  'PATCH /integrations/connections/{connection}': {
    summary: 'Update a connection (owner)',
    description:
      'Fields given replace the stored ones. New `credentials` make a connection that needs reconnecting ' +
      '`active` again; an OAuth connection given credentials becomes a token connection (`auth_method: token`, ' +
      "its OAuth tokens dropped), so they are the provider's whole set (a 422 names any missing).",
    params: connectionParams,
    body: updateConnectionBody,
    responses: {
      200: { description: 'The connection', payload: z.object({ connection }) },
      ...NOT_YOURS,
      ...NO_CONNECTION,
      422: TRACKER_ERRORS[422],
    },
  },
  'DELETE /integrations/connections/{connection}': {
    summary: 'Delete a connection and its credentials (owner)',
    description: 'Stories it imported stay; later syncs report them as failed.',
    params: connectionParams,
    responses: {
      200: { description: 'Deleted', payload: z.object({ connection: z.object({ id: z.uuid() }) }) },
      ...NOT_YOURS,
      ...NO_CONNECTION,
    },
  },
  'POST /integrations/connections/{connection}/test': {
    summary: 'Test a connection (owner)',
    description:
      'Answers 200 when the provider accepts the credentials and the configured project is reachable.',
    params: connectionParams,
    responses: {
      200: {
        description: 'Reachable',
        payload: z.object({ connection, account: z.string(), warnings: z.array(z.string()) }),
      },
      ...NOT_YOURS,
      ...NO_CONNECTION,
      ...TRACKER_ERRORS,
    },
  },
  'POST /integrations/import-preview': {
    summary: 'Preview the issues of a CSV or a tracker (nothing is stored)',
    description:
      'CSV: RFC 4180 with a header row; `title` required, `description`, `acceptance_criteria`, `external_id`, `url`, ' +
      '`labels` (`;`-separated) optional, other columns ignored; a byte order mark is dropped; quoted fields may hold ' +
      'commas and line breaks. A broken file is a 422 whose `errors.csv` names each line. A row without ' +
      '`external_id` gets one derived from its text, so importing the same file again adds nothing. ' +
      "Tracker: the issues of the connection's settings (GitHub: open issues of the repository with the labels, pull " +
      'requests left out; Linear: team, project, state; Jira: the JQL; Azure DevOps: the WIQL; Trello: the board or ' +
      'list; Notion: the data source), up to `limit`, page after page of the provider; `next_cursor` continues. ' +
      "Descriptions come as markdown (HTML and Atlassian documents converted); text beyond a story's limits is cut.",
    body: previewBody,
    responses: {
      200: {
        description: 'The issues',
        payload: z.object({ issues: z.array(issue), next_cursor: z.string().nullable() }),
      },
      ...NOT_YOURS,
      ...NO_CONNECTION,
      ...TRACKER_ERRORS,
    },
  },
  'POST /sessions/{code}/integrations/import-confirm': {
    summary: 'Import issues into a session as stories, in order (session owner)',
    description:
      'Each issue becomes a story at the end of the queue (the first one current when none is). Importing the same ' +
      'issue (same source and external id) into the same session again does not add it twice: it is listed with ' +
      '`already_imported`; one whose story was deleted since is added again (not listed so). Announced by `import.completed`.',
    params: codeParams,
    body: confirmBody,
    responses: {
      201: { description: 'The stories, in order', payload: z.object({ stories: z.array(importedStory) }) },
      ...NOT_YOURS,
      ...NO_SESSION,
      ...TRACKER_ERRORS,
      409: {
        description:
          `${TRACKER_ERRORS[409].description}; or the session is archived: read-only until it is unarchived ` +
          '(`session_archived`)',
      },
    },
  },
  'POST /sessions/{code}/integrations/sync-estimates': {
    summary: 'Write final estimates back to their trackers (session owner)',
    description:
      "Each revealed, imported story's final estimate goes back where it came from: GitHub as a comment and/or an " +
      '`estimate: N` label; Jira in the story points field (found by name when not set), else a comment; Linear as the ' +
      'estimate (a comment when the team does not estimate or the card is not a number); Azure DevOps in Story Points ' +
      '(JSON Patch), else a comment; Trello in the number custom field, else a comment; Notion in the number or select ' +
      'property, else a comment. CSV stories are skipped (use the session export); a story whose connection has been ' +
      'deleted, or now reads from another repository, site or project, fails. One sync log row per story; ' +
      'announced by `estimates.synced`. A connection with `auto_sync` does this by itself at each reveal.',
    params: codeParams,
    body: syncBody,
    responses: {
      200: { description: 'What happened to each story', payload: z.object({ sync }) },
      ...NOT_YOURS,
      ...NO_SESSION,
    },
  },
  'GET /integrations/sync-logs': {
    summary: "The caller's sync log, newest first",
    description:
      'A row per story of each sync attempt, manual or automatic, kept 90 days: older rows are forgotten (hourly).',
    query: syncLogsQuery,
    responses: {
      200: {
        description: 'A page of rows',
        payload: z.object({ sync_logs: z.array(syncLog), meta: pageMetaSchema }),
      },
    },
  },
} satisfies UnitDocs;
