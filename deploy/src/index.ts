/** The launcher's building blocks, for tests and for tools that start the platform themselves. */
export {
  createSystem,
  type NatsServerControl,
  type System,
  type SystemOptions,
  type UnitProcess,
} from './launcher/system.ts';
export { parseScale, type Scale } from './launcher/scale.ts';
export { createLauncherLog, prefixLine } from './launcher/log.ts';
export { units, repoRoot, unitEnvironment, databaseUrls } from './launcher/units.ts';
export { loadSecrets } from './launcher/secrets.ts';
export { findFreePort, isPortFree } from './launcher/ports.ts';
