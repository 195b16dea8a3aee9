import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';

/*
 * Spans of the platform's own work (the outbox, the bus, a few named steps), made through the
 * OpenTelemetry API. Until tracing is switched on (the SDK started, or a test's tracer provider)
 * every helper here is one boolean check and calls straight through: the vote path pays nothing.
 */
let on = false;

/** Switches the helpers on (the SDK or a test registered a tracer provider and a context manager). */
export function markTracingOn(value = true): void {
  on = value;
}

export const tracingOn = (): boolean => on;

const tracer = () => trace.getTracer('planning-poker');

/** The ids a log line carries inside a traced request or consumed event; undefined when there is none. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  if (!on) return undefined;
  const span = trace.getActiveSpan()?.spanContext();
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : undefined;
}

/** The W3C traceparent of the active span (what the outbox keeps with an event), or null. */
export function currentTraceparent(): string | null {
  if (!on) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** Headers of a message that may carry a trace context (NATS headers answer '' for a missing key). */
export interface TraceCarrier {
  get(key: string): string | undefined;
}

const carrierGetter = {
  get: (carrier: TraceCarrier, key: string) => carrier.get(key) || undefined,
  keys: () => ['traceparent', 'tracestate'],
};

const contextOf = (carrier: TraceCarrier | undefined): Context | undefined =>
  carrier && carrier.get('traceparent')
    ? propagation.extract(ROOT_CONTEXT, carrier, carrierGetter)
    : undefined;

/** Runs fn as the span's work: the span ends when fn has settled, failed if fn threw. */
function settle<T>(span: Span, fn: () => T): T {
  const failed = (err: unknown) => {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  };
  let result: T;
  try {
    result = fn();
  } catch (err) {
    failed(err);
    span.end();
    throw err;
  }
  if (result instanceof Promise)
    return result.then(
      (value: unknown) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        failed(err);
        span.end();
        throw err;
      },
    ) as T;
  span.end();
  return result;
}

/** A named step of the platform's work, as a child of the active span. */
export function inSpan<T>(name: string, attributes: Attributes, fn: () => T): T {
  if (!on) return fn();
  return tracer().startActiveSpan(name, { attributes }, (span) => settle(span, fn));
}

/**
 * Work that continues a trace kept with it (a row's traceparent, written by the request or consumer
 * that queued the work): a span child of that context, fn run inside it.
 */
export function inKeptTrace<T>(
  name: string,
  traceparent: string | null | undefined,
  attributes: Attributes,
  fn: () => T,
): T {
  if (!on || !traceparent) return fn();
  const parent = propagation.extract(ROOT_CONTEXT, { traceparent });
  return tracer().startActiveSpan(name, { attributes }, parent, (span) => settle(span, fn));
}

/**
 * Publishing a message that continues a trace kept with it (an outbox row's traceparent): a producer
 * span, child of that context, whose own context `publish` gets as headers to send with the message.
 * Without a kept trace (or with tracing off) the message goes without one.
 */
export function inProducerSpan<T>(
  name: string,
  traceparent: string | null | undefined,
  attributes: Attributes,
  publish: (headers: Record<string, string>) => T,
): T {
  if (!on || !traceparent) return publish({});
  const parent = propagation.extract(ROOT_CONTEXT, { traceparent });
  return tracer().startActiveSpan(name, { kind: SpanKind.PRODUCER, attributes }, parent, (span) =>
    settle(span, () => {
      const headers: Record<string, string> = {};
      propagation.inject(context.active(), headers);
      return publish(headers);
    }),
  );
}

/**
 * Handling consumed messages: a consumer span, child of the first message's trace (the request that
 * caused the event) and linked to the others' (a batch has one span), with fn run inside it, so its
 * log lines, queries and calls belong to that trace.
 */
export function inConsumerSpan<T>(
  name: string,
  carriers: ReadonlyArray<TraceCarrier | undefined>,
  attributes: Attributes,
  fn: () => T,
): T {
  if (!on) return fn();
  const [first, ...rest] = carriers.map(contextOf);
  const links: Link[] = [];
  for (const ctx of rest) {
    const linked = ctx && trace.getSpanContext(ctx);
    if (linked) links.push({ context: linked });
  }
  return tracer().startActiveSpan(
    name,
    { kind: SpanKind.CONSUMER, attributes, links },
    first ?? ROOT_CONTEXT,
    (span) => settle(span, fn),
  );
}

/** Work that belongs to no request (a poller kicked by one, say): run outside the active trace. */
export function outsideTrace<T>(fn: () => T): T {
  return on ? context.with(ROOT_CONTEXT, fn) : fn();
}
