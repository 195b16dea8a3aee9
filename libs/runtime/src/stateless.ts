import type { Express } from 'express';
import { listen, type RunningServer } from '@pp/http';
import { createLogger, type Logger } from '@pp/logger';
import { runMain } from './main.ts';
import type { BackgroundTask } from './periodic-task.ts';

/** What a unit that owns no data (no database, no event bus) is made of. */
export interface StatelessUnitContext {
  name: string;
  logger: Logger;
  isShuttingDown: () => boolean;
}

export interface StatelessServiceDefinition {
  name: string;
  config: { PORT: number; HOST?: string; LOG_LEVEL: string; SHUTDOWN_TIMEOUT_MS: number };
  createApp: (unit: StatelessUnitContext) => Express;
  /** Timers of the unit: started after it listens, stopped first when it shuts down. */
  background?: (unit: StatelessUnitContext) => BackgroundTask[];
  host?: string;
}

export interface StartedStatelessService {
  server: RunningServer;
  stop: () => Promise<void>;
}

/** Starts a unit that owns no data in this process (main.ts and the tests use the same path). */
export async function startStatelessService(
  def: StatelessServiceDefinition,
  logger?: Logger,
): Promise<StartedStatelessService> {
  let shuttingDown = false;
  const unit: StatelessUnitContext = {
    name: def.name,
    logger: logger ?? createLogger({ name: def.name, level: def.config.LOG_LEVEL }),
    isShuttingDown: () => shuttingDown,
  };
  const server = await listen(def.createApp(unit), def.config.PORT, def.host ?? def.config.HOST);
  const background = def.background?.(unit) ?? [];
  unit.logger.info({ port: server.port }, `${def.name} listening`);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      shuttingDown = true;
      await server.close();
      for (const task of background) await task.stop();
    })());
  return { server, stop };
}

/** main.ts of a unit that owns no data: start it, and stop it gracefully on SIGTERM / SIGINT. */
export function runStatelessService(def: StatelessServiceDefinition): Promise<StartedStatelessService> {
  return runMain(def, (logger) => startStatelessService(def, logger));
}
