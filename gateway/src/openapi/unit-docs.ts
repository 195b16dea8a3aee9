import { identityApi } from '@pp/identity-service/api-schemas';
import { sessionsApi } from '@pp/sessions-service/api-schemas';
import { storiesApi } from '@pp/stories-service/api-schemas';
import type { UnitDocs } from './route-doc.ts';

/**
 * The units' own descriptions of their endpoints (zod schemas keyed "METHOD /path"). A unit that
 * exports its schemas the same way is added here and its routes are documented in full; the others
 * are documented from the route table alone.
 */
export const unitDocs: UnitDocs = {
  ...identityApi,
  ...sessionsApi,
  ...storiesApi,
};
