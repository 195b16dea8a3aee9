import { trace } from '@opentelemetry/api';
import { traceInMemory } from '@pp/testing';
import {
  activeTraceIds,
  currentTraceparent,
  inConsumerSpan,
  inKeptTrace,
  inProducerSpan,
  inSpan,
  startTracing,
  tracingOn,
} from '../src/index.ts';

const carrier = (headers: Record<string, string>) => ({ get: (key: string) => headers[key] ?? '' });

describe('tracing off', () => {
  it('starts no SDK without an OTLP endpoint, and the helpers only call through', async () => {
    expect(await startTracing({ service: 'test' }, {})).toBe(false);
    expect(tracingOn()).toBe(false);
    expect(inSpan('x', {}, () => currentTraceparent())).toBeNull();
    expect(inSpan('x', {}, () => activeTraceIds())).toBeUndefined();
    expect(
      inProducerSpan('p', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', {}, (h) => h),
    ).toEqual({});
  });
});

describe('tracing on', () => {
  let tracing: ReturnType<typeof traceInMemory>;
  beforeAll(() => {
    tracing = traceInMemory();
  });
  afterAll(() => tracing.stop());

  it('carries a trace from a kept traceparent through a message to its consumer', () => {
    const kept = inSpan('request', {}, () => currentTraceparent())!;
    expect(kept).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const headers = inProducerSpan('publish', kept, {}, (h) => h);
    const ids = inConsumerSpan('process', [carrier(headers)], {}, () => activeTraceIds())!;
    expect(ids.trace_id).toBe(kept.split('-')[1]);
    const spans = tracing.spans();
    const publish = spans.find((s) => s.name === 'publish')!;
    const process = spans.find((s) => s.name === 'process')!;
    expect(publish.parentSpanContext?.spanId).toBe(kept.split('-')[2]);
    expect(process.parentSpanContext?.spanId).toBe(publish.spanContext().spanId);
    expect(ids.span_id).toBe(process.spanContext().spanId);
  });

  it("handles a batch as the first message's trace, linked to the others'", async () => {
    const [a, b] = ['first', 'second'].map((name) => inSpan(name, {}, () => currentTraceparent()!));
    await inConsumerSpan(
      'batch',
      [carrier({ traceparent: a! }), carrier({}), carrier({ traceparent: b! })],
      {},
      async () => {
        expect(trace.getActiveSpan()?.spanContext().traceId).toBe(a!.split('-')[1]);
      },
    );
    const batch = tracing.spans().find((s) => s.name === 'batch')!;
    expect(batch.links.map((l) => l.context.traceId)).toEqual([b!.split('-')[1]]);
  });

  it('continues a kept trace for work done later, outside the request', () => {
    const kept = inSpan('queued', {}, () => currentTraceparent())!;
    const ids = inKeptTrace('later', kept, {}, () => activeTraceIds())!;
    expect(ids.trace_id).toBe(kept.split('-')[1]);
    const later = tracing.spans().find((s) => s.name === 'later')!;
    expect(later.parentSpanContext?.spanId).toBe(kept.split('-')[2]);
    expect(inKeptTrace('none', null, {}, () => activeTraceIds())).toBeUndefined();
  });

  it('marks a span failed with what its work threw', async () => {
    await expect(inSpan('fails', {}, async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    const failed = tracing.spans().find((s) => s.name === 'fails')!;
    expect(failed.status).toMatchObject({ code: 2, message: 'no' });
  });
});
