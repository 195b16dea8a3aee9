import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { errorEnvelopeSchema, genericSuccessSchema, ROOM_CONTROL_REFUSAL } from '@pp/http';
import type { RouteEntry } from '../routes.ts';
import { API_DESCRIPTION, rateLimitHeaders, retryAfterHeaders } from './api-description.ts';
import { gatewayPaths } from './gateway-paths.ts';

/** An OpenAPI document as JSON: what the units serve and the gateway merges. */
export interface OpenApiJson {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, OperationJson>>;
  components?: Record<string, Record<string, unknown> | undefined>;
  [key: string]: unknown;
}
export interface OperationJson {
  summary?: string;
  description?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, { headers?: unknown; [key: string]: unknown }>;
  [key: string]: unknown;
}

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const error = (description: string, headers = rateLimitHeaders) => ({
  description,
  headers,
  content: json(errorEnvelopeSchema),
});
const WITH_BODY = new Set(['POST', 'PATCH', 'PUT']);

/** What each tag (the unit that serves its paths) is about. */
const TAGS: Record<string, string> = {
  identity: 'Accounts, sign-in (password or social), and API and MCP tokens',
  sessions: 'Sessions (rooms), participants, votes and the live room; folders, workspace and templates',
  mcp: 'The Model Context Protocol server, for AI assistants',
  stories: 'Stories of a session, revealing votes, analytics and export',
  ai: 'AI suggestions on the stories of a session',
  integrations: 'Issue trackers and chat tools: connections, import, estimates written back',
  webhooks: 'Webhooks: events of your sessions sent to your endpoints, with their deliveries',
  gateway: 'What the gateway answers itself: where to start, health, readiness and this document',
};

/** What the gateway says of every route: its success, and the answers it or any unit may give. */
function responsesOf(route: RouteEntry): ZodOpenApiResponsesObject {
  const success = String(route.success ?? 200) as `${1 | 2 | 3 | 4 | 5}${string}`;
  const responses: ZodOpenApiResponsesObject = {
    [success]: route.stream
      ? {
          description: 'A Server-Sent Events stream',
          headers: rateLimitHeaders,
          content: { 'text/event-stream': { schema: z.string() } },
        }
      : { description: 'Success', headers: rateLimitHeaders, content: json(genericSuccessSchema) },
  };
  if (route.access === 'token')
    responses['401'] = error(
      'Missing, invalid, expired or revoked bearer token (`WWW-Authenticate: Bearer`)',
    );
  if (route.access === 'token-or-participant')
    responses['401'] = error(
      'Neither a bearer token nor an `X-Participant-Token`, or an invalid, expired or revoked bearer token (`WWW-Authenticate: Bearer`)',
    );
  if (route.access === 'token' && /\{/.test(route.path))
    responses['403'] = error('Not the owner of the resource');
  if (route.access === 'token-or-participant')
    responses['403'] = error(ROOM_CONTROL_REFUSAL[403].description);
  if (/\{/.test(route.path)) responses['404'] = error('No such resource');
  if (WITH_BODY.has(route.method)) {
    responses['400'] = error('The body is not valid JSON');
    responses['413'] = error('The body is over the size limit');
    responses['415'] = error('The body is not JSON (`Content-Type` other than `application/json`)');
    responses['422'] = error(
      'Validation failed: `errors` names each field, and `_body` the body as a whole (not an object, nested deeper than 64 levels, over 10,000 keys and array elements)',
    );
  }
  responses['429'] = error('Rate limit exceeded', retryAfterHeaders);
  responses['503'] = error('A service or dependency is unavailable (with `Retry-After`)', retryAfterHeaders);
  responses['504'] = error('A service did not answer in time');
  return responses;
}

const SECURITY: Record<RouteEntry['access'], Array<Record<string, string[]>>> = {
  public: [{}, { bearerAuth: [] }],
  token: [{ bearerAuth: [] }],
  'token-or-participant': [{ bearerAuth: [] }, { participantToken: [] }],
};

function operationOf(route: RouteEntry): ZodOpenApiOperationObject {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: route.summary,
    tags: [route.unit],
    // A public endpoint takes a token too (optional): then it acts as that user. Round control takes
    // a bearer token, or the room's moderator's participant token instead.
    security: SECURITY[route.access],
    ...(names.length
      ? { requestParams: { path: z.object(Object.fromEntries(names.map((n) => [n, z.string()]))) } }
      : {}),
    responses: responsesOf(route),
  };
}

/** The document of the route table alone: every public path, what the gateway knows of it. */
export function routeTableDocument(table: readonly RouteEntry[], version = '1.0.0'): OpenApiJson {
  const paths: ZodOpenApiPathsObject = { ...gatewayPaths };
  for (const route of table) {
    const item = (paths[route.path] ??= {}) as Record<string, ZodOpenApiOperationObject>;
    item[route.method.toLowerCase()] = operationOf(route);
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Planning Poker API',
      version,
      description: API_DESCRIPTION,
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the gateway that serves this document, whatever address it is reached at.
    servers: [{ url: '/', description: 'The gateway that serves this document' }],
    tags: [
      ...[...new Set(table.map((r) => r.unit))].map((name) => ({ name, description: TAGS[name] })),
      { name: 'gateway', description: TAGS.gateway },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Access, API or MCP token (`pp_<kind>_...`)',
        },
        participantToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Participant-Token',
          description:
            "A room participant's token (`ppt_...`, answered by the join). Votes take it; round control takes the room moderator's instead of a bearer token.",
        },
      },
    },
  }) as unknown as OpenApiJson;
}

const QUERY_TYPE =
  'a query value of the wrong type (a whole number not in decimal digits, a key given twice): `invalid_query`';

/** What every operation with a query may answer of it, beside what its unit documents. */
function addQueryAnswers(responses: NonNullable<OperationJson['responses']>, headers: unknown) {
  const content = responses['429']?.content;
  const bad = responses['400'];
  responses['400'] = bad
    ? { ...bad, description: `${String(bad.description)}; or ${QUERY_TYPE}` }
    : { description: `${QUERY_TYPE[0]!.toUpperCase()}${QUERY_TYPE.slice(1)}`, headers, content };
  responses['422'] ??= {
    description: 'A query value out of range or not one of those allowed: `errors` names it',
    headers,
    content,
  };
}

/**
 * The API's document: the route table's, with what each unit says of its own paths laid over it (its
 * parameters, request bodies and documented answers, from the zod schemas its routes validate with).
 * Only routed paths are taken from a unit; the gateway's answers (401, 429, 503, ...) stay.
 */
export function mergeUnitDocuments(base: OpenApiJson, units: OpenApiJson[]): OpenApiJson {
  const doc = structuredClone(base);
  const schemas = ((doc.components ??= {}).schemas ??= {}) as Record<string, unknown>;
  for (const unit of units) {
    for (const [path, item] of Object.entries(unit.paths ?? {})) {
      for (const [method, op] of Object.entries(item)) {
        const target = doc.paths?.[path]?.[method];
        if (!target) continue;
        const responses = (target.responses ??= {});
        const headers = Object.values(responses)[0]?.headers;
        if (op.summary) target.summary = op.summary;
        if (op.description) target.description = op.description;
        if (op.parameters) target.parameters = op.parameters;
        if (op.requestBody) target.requestBody = op.requestBody;
        const documented = op.responses ?? {};
        // A success the unit describes replaces the table's (whose content stays if the unit gives none).
        if (Object.keys(documented).some((status) => Number(status) < 400))
          for (const status of Object.keys(responses))
            if (Number(status) < 400 && !(status in documented)) delete responses[status];
        for (const [status, response] of Object.entries(documented))
          responses[status] = {
            ...responses[status],
            ...response,
            // The gateway's headers (rate limit, Retry-After) and those the unit sends itself.
            headers: {
              ...((responses[status]?.headers ?? headers) as object),
              ...(response.headers as object | undefined),
            },
          };
        if (op.parameters?.some((p) => (p as { in?: string }).in === 'query'))
          addQueryAnswers(responses, headers);
      }
    }
    for (const [name, schema] of Object.entries(unit.components?.schemas ?? {})) schemas[name] ??= schema;
  }
  return doc;
}
