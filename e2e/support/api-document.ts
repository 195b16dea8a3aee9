/**
 * The API's document as the gateway serves it once every unit has answered, built here without
 * starting anything: the route table's document with each unit's own description laid over it; and
 * the route table itself as the units' descriptions derive it.
 */
import { unitOpenApi, type RouteDoc, type UnitDocs } from '@pp/http';
import {
  mergeUnitDocuments,
  routeTableDocument,
  type OpenApiJson,
} from '../../gateway/src/openapi/document.ts';
import { shareGatewayAnswers } from '../../gateway/src/openapi/shared-answers.ts';
import type { HttpMethod, RouteEntry } from '../../gateway/src/routes.ts';
import { aiApi } from '../../services/ai/src/api/docs.ts';
import { identityApi } from '../../services/identity/src/api/docs.ts';
import { integrationsApi } from '../../services/integrations/src/api/docs.ts';
import { docs as mcpApi } from '../../services/mcp/src/api/docs.ts';
import { sessionsApi } from '../../services/sessions/src/api/docs.ts';
import { storiesApi } from '../../services/stories/src/api/docs.ts';
import { webhooksApi } from '../../services/webhooks/src/api/docs.ts';

/** Each unit's descriptions of its public paths, as it serves them to the gateway. */
export const unitDescriptions: Record<string, UnitDocs> = {
  identity: identityApi,
  sessions: sessionsApi,
  stories: storiesApi,
  ai: aiApi,
  integrations: integrationsApi,
  webhooks: webhooksApi,
  mcp: mcpApi,
};

/** The success statuses a description documents (below 400), in order. */
export const successesOf = (doc: RouteDoc) =>
  Object.keys(doc.responses ?? {})
    .map(Number)
    .filter((status) => status < 400);

/** Whether a description's 200 answers with Server-Sent Events. */
export function streams(doc: RouteDoc): boolean {
  const ok = doc.responses?.[200];
  return [...Object.keys(ok?.content ?? {}), ...Object.values(ok?.headers ?? {})].some((media) =>
    media.includes('text/event-stream'),
  );
}

/** The route of a unit's path as its description says it. */
export function routeOf(unit: string, key: string, doc: RouteDoc): RouteEntry {
  const [method, path] = key.split(' ') as [HttpMethod, string];
  const ok = successesOf(doc);
  // A path that always refuses (GET /mcp: 405) documents no success and claims none.
  const success = ok.length === 0 || ok.includes(200) ? undefined : ok[0];
  return {
    method,
    path,
    unit: unit as RouteEntry['unit'],
    access: doc.public ? 'public' : doc.orParticipantToken ? 'token-or-participant' : 'token',
    summary: doc.summary ?? `${method} ${path}`,
    ...(success !== undefined ? { success } : {}),
    ...(streams(doc) ? { stream: true } : {}),
  };
}

/** Every unit's routes, unit by unit in the order each describes them. */
export const derivedRoutes = (): RouteEntry[] =>
  Object.entries(unitDescriptions).flatMap(([unit, docs]) =>
    Object.entries(docs).map(([key, doc]) => routeOf(unit, key, doc)),
  );

export function mergedApiDocument(): OpenApiJson {
  const units = Object.entries(unitDescriptions).map(
    ([unit, docs]) => unitOpenApi(unit, docs) as unknown as OpenApiJson,
  );
  const base = routeTableDocument(derivedRoutes());
  return shareGatewayAnswers(mergeUnitDocuments(base, units), base);
}
