import { Router } from 'express';
import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { requireService } from './identity.ts';
import { errorEnvelopeSchema, successSchemaOf } from './openapi-envelope.ts';
import type { RouteDoc, UnitDocs } from './route-doc.ts';

/** Where a unit serves the OpenAPI description of its public paths (to the gateway only). */
export const UNIT_OPENAPI_PATH = '/internal/openapi.json';

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** "POST /sessions/{code}/join" as a method and an OpenAPI path. */
export function routeKeyParts(key: string): { method: string; path: string } {
  const [method, path] = key.split(' ');
  if (!method || !path || !METHODS.has(method) || !path.startsWith('/'))
    throw new Error(`not a route key: "${key}"`);
  return { method, path };
}

function responsesOf(doc: RouteDoc): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, r] of Object.entries(doc.responses ?? {})) {
    const content = {
      ...(Number(status) >= 400
        ? json(errorEnvelopeSchema)
        : r.payload
          ? json(successSchemaOf(r.payload))
          : {}),
      ...Object.fromEntries(Object.entries(r.content ?? {}).map(([type, schema]) => [type, { schema }])),
    };
    // A response's Content-Type is its media type (OpenAPI ignores a header of that name).
    const headers = Object.entries(r.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'content-type');
    responses[status as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: r.description,
      ...(headers.length
        ? {
            headers: z.object(
              Object.fromEntries(
                headers.map(([name, about]) => [name, z.string().meta({ description: about })]),
              ),
            ),
          }
        : {}),
      ...(Object.keys(content).length ? { content } : {}),
    };
  }
  return responses;
}

function operationOf(doc: RouteDoc): ZodOpenApiOperationObject {
  const params =
    doc.params || doc.query
      ? { ...(doc.params ? { path: doc.params } : {}), ...(doc.query ? { query: doc.query } : {}) }
      : undefined;
  return {
    ...(doc.summary ? { summary: doc.summary } : {}),
    ...(doc.description ? { description: doc.description } : {}),
    ...(params ? { requestParams: params } : {}),
    ...(doc.body ? { requestBody: { required: true, content: json(doc.body) } } : {}),
    responses: responsesOf(doc),
  };
}

/**
 * The OpenAPI 3.1 description of a unit's public paths, from the same zod schemas its routes validate
 * with: parameters, request bodies, and the payloads of the responses it documents, in the envelope.
 * The gateway merges the units' descriptions with its route table (security, rate-limit headers, the
 * answers it gives itself) into the API's document.
 */
export function unitOpenApi(unit: string, docs: UnitDocs) {
  const paths: ZodOpenApiPathsObject = {};
  for (const [key, doc] of Object.entries(docs)) {
    const { method, path } = routeKeyParts(key);
    const item = (paths[path] ??= {}) as Record<string, ZodOpenApiOperationObject>;
    item[method.toLowerCase()] = operationOf(doc);
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: `Planning Poker API: ${unit}`, version: '1.0.0' },
    paths,
    components: { schemas: { ErrorEnvelope: errorEnvelopeSchema } },
  });
}

/** `GET /internal/openapi.json`: the unit's description, for the gateway (a signed service identity). */
export function unitOpenApiRoutes(unit: string, docs: UnitDocs): Router {
  const body = JSON.stringify(unitOpenApi(unit, docs));
  const router = Router();
  router.get(UNIT_OPENAPI_PATH, requireService, (_req, res) => {
    res.type('application/json').send(body);
  });
  return router;
}
