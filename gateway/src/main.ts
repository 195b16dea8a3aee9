import { startTracing } from '@pp/telemetry';

// Tracing starts before the gateway's modules load, so that its instrumentations hook them as they
// do. At the edge a client's traceparent is not continued: every request starts its own trace.
await startTracing({ service: 'gateway', edge: true });
await import('./serve.ts');
