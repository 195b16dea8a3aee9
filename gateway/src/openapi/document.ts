import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { routeKey, type RouteEntry } from '../routes.ts';
import {
  API_DESCRIPTION,
  errorEnvelope,
  genericSuccess,
  rateLimitHeaders,
  retryAfterHeaders,
  successOf,
} from './envelope.schemas.ts';
import type { RouteDoc, UnitDocs } from './route-doc.ts';
import { gatewayPaths } from './gateway-paths.ts';

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const error = (description: string, headers = rateLimitHeaders) => ({
  description,
  headers,
  content: json(errorEnvelope),
});

const pathParams = (path: string, doc?: RouteDoc) => {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (doc?.params) return doc.params;
  return names.length ? z.object(Object.fromEntries(names.map((n) => [n, z.string()]))) : undefined;
};

function responsesOf(route: RouteEntry, doc: RouteDoc | undefined): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, r] of Object.entries(doc?.responses ?? {})) {
    const isError = Number(status) >= 400;
    responses[status as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: r.description,
      headers: rateLimitHeaders,
      ...(isError
        ? { content: json(errorEnvelope) }
        : r.payload
          ? { content: json(successOf(r.payload)) }
          : {}),
    };
  }
  const success = String(route.success ?? 200) as `${1 | 2 | 3 | 4 | 5}${string}`;
  if (!Object.keys(responses).some((s) => Number(s) < 400)) {
    responses[success] = route.stream
      ? {
          description: 'A Server-Sent Events stream',
          headers: rateLimitHeaders,
          content: { 'text/event-stream': { schema: z.string() } },
        }
      : { description: 'Success', headers: rateLimitHeaders, content: json(genericSuccess) };
  }
  if (route.access === 'token')
    responses['401'] ??= error(
      'Missing, invalid, expired or revoked bearer token (`WWW-Authenticate: Bearer`)',
    );
  if (route.access === 'token' && /\{/.test(route.path))
    responses['403'] ??= error('Not the owner of the resource');
  if (/\{/.test(route.path)) responses['404'] ??= error('No such resource');
  if (['POST', 'PATCH', 'PUT'].includes(route.method)) {
    responses['400'] ??= error('The body is not JSON or has the wrong content type');
    responses['413'] ??= error('The body is over the size limit');
    responses['422'] ??= error('Validation failed: `errors` names each field');
  }
  responses['429'] = error('Rate limit exceeded', retryAfterHeaders);
  responses['503'] = error('A service or dependency is unavailable (with `Retry-After`)', retryAfterHeaders);
  responses['504'] = error('A service did not answer in time');
  return responses;
}

function operationOf(route: RouteEntry, doc: RouteDoc | undefined): ZodOpenApiOperationObject {
  const path = pathParams(route.path, doc);
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: doc?.summary ?? route.summary,
    ...(doc?.description ? { description: doc.description } : {}),
    tags: [route.unit],
    // A public endpoint takes a token too (optional): then it acts as that user.
    security: route.access === 'token' ? [{ bearerAuth: [] }] : [{}, { bearerAuth: [] }],
    ...(path || doc?.query
      ? { requestParams: { ...(path ? { path } : {}), ...(doc?.query ? { query: doc.query } : {}) } }
      : {}),
    ...(doc?.body ? { requestBody: { required: true, content: json(doc.body) } } : {}),
    responses: responsesOf(route, doc),
  };
}

/** The OpenAPI 3.1 document of the whole public API: every route-table entry, in full where its unit describes it. */
export function buildOpenApiDocument(table: readonly RouteEntry[], docs: UnitDocs, version = '1.0.0') {
  const paths: ZodOpenApiPathsObject = { ...gatewayPaths };
  for (const route of table) {
    const item = (paths[route.path] ??= {});
    (item as Record<string, ZodOpenApiOperationObject>)[route.method.toLowerCase()] = operationOf(
      route,
      docs[routeKey(route)],
    );
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'Planning Poker API', version, description: API_DESCRIPTION },
    tags: [...new Set(table.map((r) => r.unit))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Access, API or MCP token (`pp_<kind>_...`)',
        },
      },
    },
  });
}
