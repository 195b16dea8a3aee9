/**
 * One request followed across the units: a reveal through the gateway makes one trace, from the
 * gateway through the stories unit, the sessions unit's round command and the outbox's publish, to
 * the webhooks unit's consumer that records the delivery and its attempt. Spans are kept in memory (the http
 * instrumentation on node's http module, the platform's own spans for the outbox and the bus).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { traceInMemory, until, type ReadableSpan } from '@pp/testing';
import { startPlatform, type Platform } from './support/platform.ts';

/** The path of a server span and the URL of a client span (either generation of the attribute names). */
const pathOf = (s: ReadableSpan) => String(s.attributes['url.path'] ?? s.attributes['http.target'] ?? '');
const urlOf = (s: ReadableSpan) => String(s.attributes['url.full'] ?? s.attributes['http.url'] ?? '');
const SERVER = 1;
const CLIENT = 2;

describe('a reveal traced across the units', () => {
  let tracing: ReturnType<typeof traceInMemory>;
  let p: Platform;
  let endpoint: Server;
  const delivered: string[] = [];

  beforeAll(async () => {
    tracing = traceInMemory();
    endpoint = createServer((req, res) => {
      delivered.push(String(req.headers['webhook-id'] ?? ''));
      req.resume().on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    p = await startPlatform({ webhooksEnv: {} });
  }, 60_000);

  afterAll(async () => {
    await p?.stop();
    endpoint.close();
    await tracing.stop();
  });

  it('makes one trace from the gateway to the webhook delivery', async () => {
    const owner = await p.signUp('Owner');
    const as = { token: owner };
    const port = (endpoint.address() as AddressInfo).port;
    const hook = await p.client.post('/webhooks', {
      body: { url: `http://127.0.0.1:${port}/hook`, events: ['story.revealed'] },
      ...as,
    });
    expect(hook.status).toBe(201);
    const session = (await p.client.post('/sessions', { body: { name: 'Traced' }, ...as })).body.session;
    const story = (await p.client.post(`/sessions/${session.code}/stories`, { body: { title: 'A' }, ...as }))
      .body.story;
    const revealed = await p.client.post(`/stories/${story.id}/reveal`, as);
    expect(revealed.status).toBe(200);

    // The gateway's span is the trace's root: the units' spans hang below it, hop by hop.
    const path = `/stories/${story.id}/reveal`;
    const root = (s: ReadableSpan) => s.kind === SERVER && pathOf(s) === path && !s.parentSpanContext;
    const gateway = await until(async () => tracing.spans().find(root));
    const traceId = gateway.spanContext().traceId;
    const inTrace = () => tracing.spans().filter((s) => s.spanContext().traceId === traceId);
    const childOf = (parent: ReadableSpan | undefined, match: (s: ReadableSpan) => boolean) =>
      inTrace().find((s) => s.parentSpanContext?.spanId === parent?.spanContext().spanId && match(s));
    const calls = (url: string) => (s: ReadableSpan) => s.kind === CLIENT && urlOf(s).startsWith(url);
    const served = (s: ReadableSpan) => s.kind === SERVER;

    await until(async () => delivered.length > 0);
    // The delivery's span ends once the endpoint has answered.
    const hookUrl = `http://127.0.0.1:${port}/hook`;
    const consumed = await until(async () =>
      inTrace().find((s) => s.name === 'webhooks-story-revealed process story.revealed'),
    );
    // The attempt joins the trace the consumer kept with the delivery, whichever loop claimed it.
    const attempt = await until(async () => childOf(consumed, (s) => s.name === 'webhook delivery'));
    const delivery = await until(async () => childOf(attempt, calls(hookUrl)));

    const toStories = childOf(gateway, calls(`${p.unitUrls.stories}${path}`));
    const stories = childOf(toStories, served);
    const toSessions = inTrace().find((s) => calls(p.unitUrls.sessions!)(s) && urlOf(s).endsWith('/round'));
    const sessions = childOf(toSessions, served);
    const command = childOf(sessions, (s) => s.name === 'sessions round command');
    const publish = childOf(stories, (s) => s.name === 'publish story.revealed');
    expect(stories).toBeDefined();
    expect(toSessions).toBeDefined();
    expect(sessions).toBeDefined();
    expect(command).toBeDefined();
    expect(publish).toBeDefined();
    expect(consumed.parentSpanContext?.spanId).toBe(publish!.spanContext().spanId);
    expect(delivery.attributes['http.response.status_code']).toBe(204);
    // The live room of the session follows the same event in the sessions unit, in the same trace.
    expect(childOf(publish, (s) => s.name === 'feed story.revealed')).toBeDefined();
  }, 60_000);
});
