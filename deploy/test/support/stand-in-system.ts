import { fileURLToPath } from 'node:url';
import type { LauncherLog } from '../../src/launcher/log.ts';
import { createSystem, type SystemOptions } from '../../src/launcher/system.ts';
import { units, type Unit } from '../../src/launcher/units.ts';

const standIn = fileURLToPath(new URL('../fixtures/stand-in-unit.ts', import.meta.url));

/** A unit replaced by the stand-in (answers /healthz and /readyz, logs its pid), on whatever port is free. */
export const standInFor = (unit: Unit): Unit => ({ ...unit, entry: standIn, preferredPort: 0 });

/**
 * The launcher for real (its own PostgreSQL and NATS in `dataDir`) with stand-ins for the units, on
 * whatever ports are free, so that a running `npm start` on this machine does not matter. `env` comes
 * on top of PATH and HOME; `options` on top of the timeouts.
 */
export const standInSystem = (
  dataDir: string,
  log: LauncherLog,
  options: { env?: Record<string, string>; units?: readonly Unit[] } & Partial<SystemOptions> = {},
) =>
  createSystem({
    readyTimeoutMs: 30_000,
    stopGraceMs: 3_000,
    ...options,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    dataDir,
    log,
    units: options.units ?? units.map(standInFor),
  });
