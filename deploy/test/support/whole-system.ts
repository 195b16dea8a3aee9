import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSystem, type System, type SystemOptions } from '../../src/launcher/system.ts';
import { units } from '../../src/launcher/units.ts';
import { capturedLog } from './captured-log.ts';

export interface WholeSystem {
  /** The gateway's URL. */
  url: string;
  system: System;
  dataDir: string;
  /** Everything the launcher and the units logged. */
  lines: string[];
  /** Stops everything and removes the data folder. */
  stop(): Promise<void>;
}

/**
 * `npm start` for real, in process: the gateway and every service from their own main.ts, with the
 * launcher's own PostgreSQL and NATS in a temp folder, on any free ports (so that a running
 * `npm start` on this machine does not matter).
 */
export async function startWholeSystem(
  env: Record<string, string> = {},
  scale: Partial<Pick<SystemOptions, 'replicas' | 'natsCluster' | 'readyTimeoutMs'>> = {},
): Promise<WholeSystem> {
  const { lines, log } = capturedLog();
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-platform-'));
  const system = createSystem({
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000',
      ...env,
    },
    dataDir,
    log,
    units: units.map((u) => ({ ...u, preferredPort: 0 })),
    ...scale,
    readyTimeoutMs: scale.readyTimeoutMs ?? 60_000,
  });
  const stop = async () => {
    await system.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await system.start();
    return { url, system, dataDir, lines, stop };
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${lines.slice(-40).join('\n')}`);
  }
}
