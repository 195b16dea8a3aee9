import { fileURLToPath } from 'node:url';

export * from './closed-loop.ts';
export * from './load.ts';
export * from './process-cpu.ts';
export * from './rounds.ts';
export * from './servers.ts';

/** The bare proxy server script (spawn it with TARGET_URL). */
export const BARE_PROXY_SCRIPT = fileURLToPath(new URL('./bare-proxy.ts', import.meta.url));
