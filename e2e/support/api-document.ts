/**
 * The API's document as the gateway serves it once every unit has answered, built here without
 * starting anything: the route table's document with each unit's own description laid over it.
 */
import { unitOpenApi, type UnitDocs } from '@pp/http';
import {
  mergeUnitDocuments,
  routeTableDocument,
  type OpenApiJson,
} from '../../gateway/src/openapi/document.ts';
import { shareGatewayAnswers } from '../../gateway/src/openapi/shared-answers.ts';
import { routeTable } from '../../gateway/src/routes.ts';
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

export function mergedApiDocument(): OpenApiJson {
  const units = Object.entries(unitDescriptions).map(
    ([unit, docs]) => unitOpenApi(unit, docs) as unknown as OpenApiJson,
  );
  const base = routeTableDocument(routeTable);
  return shareGatewayAnswers(mergeUnitDocuments(base, units), base);
}
