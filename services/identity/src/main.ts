import { startTracing } from '@pp/telemetry';

// Tracing starts before the unit's modules load, so that its instrumentations hook them as they do.
await startTracing({ service: 'identity' });
const { configOrExit } = await import('@pp/config');
const { runService } = await import('@pp/runtime');
const { definition } = await import('./app.ts');
const { readConfig } = await import('./config.ts');

await runService(definition(configOrExit(readConfig)));
