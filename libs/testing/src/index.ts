export * from './infra.ts';
export * from './http.ts';
export * from './network-guard.ts';
export * from './nats-server.ts';
export * from './until.ts';
export * from './tcp-proxy.ts';
export * from './round-robin-proxy.ts';
export * from './sse.ts';
