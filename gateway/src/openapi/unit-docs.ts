import { identityApi } from '@pp/identity-service/api-schemas';
import type { UnitDocs } from './route-doc.ts';

/**
 * The units' own descriptions of their endpoints. A unit that exports its zod request/response
 * schemas the same way is added here and its routes are documented in full.
 */
export const unitDocs: UnitDocs = {
  ...identityApi,
};
