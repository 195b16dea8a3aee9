import { register } from 'node:module';
import type { IncomingMessage } from 'node:http';
import type { Context, TextMapGetter, TextMapPropagator, TextMapSetter } from '@opentelemetry/api';
import { markTracingOn } from './spans.ts';

export interface TracingOptions {
  /** The process's name in traces (OTEL_SERVICE_NAME overrides it). */
  service: string;
  /**
   * At the edge (the gateway): a client's traceparent is not continued (a client must not choose
   * the trace its requests land in); each request starts a trace, which the units continue.
   */
  edge?: boolean;
}

/** Paths probed all day long (health, readiness, metrics scrapes): no trace of them. */
const UNTRACED = /^\/(healthz|readyz|metrics)(\/|\?|$)/;

/** W3C trace context sent on, never taken from an incoming request. */
class SendOnlyPropagator implements TextMapPropagator {
  private readonly inner: TextMapPropagator;
  constructor(inner: TextMapPropagator) {
    this.inner = inner;
  }
  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    this.inner.inject(context, carrier, setter);
  }
  extract(context: Context, _carrier: unknown, _getter: TextMapGetter): Context {
    return context;
  }
  fields(): string[] {
    return this.inner.fields();
  }
}

let running: { shutdown(): Promise<void> } | undefined;

/**
 * Starts OpenTelemetry tracing in this process when OTEL_EXPORTER_OTLP_ENDPOINT (or the traces one)
 * is set: the Node SDK exporting over OTLP (the OTEL_* variables configure it), with the http, express
 * and pg instrumentations. It must run before the process imports the modules it instruments: a
 * main.ts awaits it first and imports the rest of the process afterwards. Unset, nothing is loaded
 * and tracing stays off (the span helpers are one boolean check).
 */
export async function startTracing(options: TracingOptions, env = process.env): Promise<boolean> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  // ES modules are instrumented through a loader hook, told which modules to wrap (only those).
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  // Traces only: metrics stay Prometheus scrapes and logs stay pino lines on stdout.
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  const [{ NodeSDK }, { W3CTraceContextPropagator }, http, express, pg] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/core'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const w3c = new W3CTraceContextPropagator();
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? options.service,
    textMapPropagator: options.edge ? new SendOnlyPropagator(w3c) : w3c,
    instrumentations: [
      new http.HttpInstrumentation({
        ignoreIncomingRequestHook: (req: IncomingMessage) => UNTRACED.test(req.url ?? ''),
        requireParentforOutgoingSpans: true,
      }),
      // The server span is named after the route (the instrumentation sets it on every layer it
      // passes): no span of its own for each middleware, router or handler.
      new express.ExpressInstrumentation({
        ignoreLayersType: [
          express.ExpressLayerType.MIDDLEWARE,
          express.ExpressLayerType.ROUTER,
          express.ExpressLayerType.REQUEST_HANDLER,
        ],
      }),
      // The outbox relay and the timers query all the time: only queries inside a trace are spans.
      // A connection taken from the pool is no span of its own (a wait for one shows before the query).
      new pg.PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  running = sdk;
  markTracingOn();
  return true;
}

/** Sends the spans not yet exported and stops the SDK (a step of a graceful shutdown). */
export async function stopTracing(): Promise<void> {
  const sdk = running;
  running = undefined;
  await sdk?.shutdown();
}
