import { installGracefulShutdown, labelMetricsWith, type RunningServer } from '@pp/http';
import { createLogger, type Logger } from '@pp/logger';
import { stopTracing } from '@pp/telemetry';

/** What a unit's main starts: its server, and how it stops. */
interface Started {
  server: RunningServer;
  /** Stops it; a step still running after `slowStepMs` is named in its log. */
  stop(options?: { slowStepMs?: number }): Promise<void>;
}

/**
 * A unit's main: starts it with a logger of its name and its metrics labelled so, stops it gracefully
 * on SIGTERM / SIGINT (`onStopping` first, as the stop begins; then the unit, then tracing), and ends the
 * process with 1 when it cannot start.
 */
export async function runMain<T extends Started>(
  def: { name: string; config: { LOG_LEVEL: string; SHUTDOWN_TIMEOUT_MS: number } },
  start: (logger: Logger) => Promise<T>,
  onStopping?: (started: T) => void,
): Promise<T> {
  const logger = createLogger({ name: def.name, level: def.config.LOG_LEVEL });
  labelMetricsWith(def.name);
  try {
    const started = await start(logger);
    installGracefulShutdown(started.server, {
      logger,
      timeoutMs: def.config.SHUTDOWN_TIMEOUT_MS,
      onStart: onStopping && (() => onStopping(started)),
      steps: [
        // A step that holds the stop up is named before the timeout ends the process.
        ['service', () => started.stop({ slowStepMs: def.config.SHUTDOWN_TIMEOUT_MS / 2 })],
        ['tracing', stopTracing],
      ],
    });
    return started;
  } catch (err) {
    logger.fatal({ err }, `${def.name} could not start`);
    process.exit(1);
  }
}
