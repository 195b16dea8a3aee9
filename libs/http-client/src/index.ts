export * from './resilient-client.ts';
export * from './service-client.ts';
