import type { Express } from 'express';
import { installGracefulShutdown, labelMetricsWith, listen, type RunningServer } from '@pp/http';
import { createLogger, type Logger } from '@pp/logger';
import { stopTracing } from '@pp/telemetry';
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
export async function runStatelessService(def: StatelessServiceDefinition): Promise<StartedStatelessService> {
  const logger = createLogger({ name: def.name, level: def.config.LOG_LEVEL });
  labelMetricsWith(def.name);
  try {
    const started = await startStatelessService(def, logger);
    installGracefulShutdown(started.server, {
      logger,
      timeoutMs: def.config.SHUTDOWN_TIMEOUT_MS,
      steps: [
        ['service', () => started.stop()],
        ['tracing', stopTracing],
      ],
    });
    return started;
  } catch (err) {
    logger.fatal({ err }, `${def.name} could not start`);
    process.exit(1);
  }
}
