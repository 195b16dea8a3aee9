import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger, type DestinationStream } from 'pino';
import { activeTraceIds } from '@pp/telemetry';

export type { Logger } from 'pino';

/**
 * What every log line of one request or one consumed message carries (with tracing on, the trace_id
 * and span_id of the span it was written in as well).
 */
export interface LogContext {
  requestId?: string;
  correlationId?: string;
  userId?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

export function runWithContext<T>(context: LogContext, fn: () => T): T {
  const outer = storage.getStore();
  return storage.run(outer ? { ...outer, ...context } : context, fn);
}

export function currentContext(): LogContext {
  return storage.getStore() ?? {};
}

export interface LoggerOptions {
  name: string;
  level?: string;
  destination?: DestinationStream;
}

export function createLogger({ name, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      name,
      level,
      base: { service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const { requestId, correlationId, userId } = currentContext();
        return {
          ...(requestId ? { request_id: requestId } : {}),
          ...(correlationId ? { correlation_id: correlationId } : {}),
          ...(userId ? { user_id: userId } : {}),
          ...activeTraceIds(),
        };
      },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-pp-identity"]',
          '*.password',
          '*.token',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
