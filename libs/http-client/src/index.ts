export * from './resilience.ts';
export * from './internal-transport.ts';
export * from './service-client.ts';
export * from './unit-descriptions.ts';
export * from './session-lookup.ts';
export * from './breakers.ts';
export * from './retry-after.ts';
