import http from 'node:http';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { markTracingOn } from '@pp/telemetry';

export type { ReadableSpan } from '@opentelemetry/sdk-trace';

/**
 * Tracing on in this jest process, its spans kept in memory: what the SDK registers (a tracer
 * provider, the async context manager, the W3C propagator) and the http instrumentation, applied to
 * node's http module by hand (jest loads modules beyond the instrumentations' loader hooks, so express
 * and pg are not instrumented here). Servers and calls of every unit started in the process then make
 * spans, as do the platform's own (outbox, bus). `stop()` switches it all off again.
 */
export function traceInMemory() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const instrumentation = new HttpInstrumentation({ requireParentforOutgoingSpans: true });
  instrumentation.setTracerProvider(provider);
  const httpModule = instrumentation.getModuleDefinitions().find((d) => d.name === 'http');
  httpModule?.patch?.(http);
  markTracingOn();
  return {
    spans: () => exporter.getFinishedSpans(),
    async stop() {
      markTracingOn(false);
      // Node's http module is the worker's own, shared with the next test files: unpatched.
      httpModule?.unpatch?.(http);
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
