export * from './resilient-client.ts';
export * from './service-client.ts';
export * from './unit-descriptions.ts';
export * from './session-lookup.ts';
