export type { RouteDoc, UnitDocs } from '@pp/http';
