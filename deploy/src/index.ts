/** The launcher's building blocks, for tests and for tools that start the platform themselves. */
export { createSystem, type System, type SystemOptions } from './launcher/system.ts';
export { createLauncherLog, prefixLine } from './launcher/log.ts';
export { units, repoRoot, unitEnvironment, databaseUrls } from './launcher/units.ts';
export { loadSecrets } from './launcher/secrets.ts';
export { findFreePort, isPortFree } from './launcher/ports.ts';
