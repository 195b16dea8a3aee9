import { getLocal, type CompletedRequest } from 'mockttp';

/** What the fake answers one chat completion with. */
export interface FakeReply {
  /** The assistant message's content: an object is sent as its JSON text. */
  content?: unknown;
  status?: number;
  /** A raw body instead of a chat completion (an HTML error page, say). */
  raw?: string;
  delayMs?: number;
}

export interface SeenCompletion {
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * A local OpenAI-compatible chat-completions server (`POST /v1/chat/completions`) answering what the
 * test says, and recording every request.
 */
export async function startFakeModel(model = 'fake-model-1') {
  const server = getLocal();
  // Port 0: the system gives a free port as it listens (a search for one first can be raced by
  // another test worker starting a server at the same moment).
  await server.start(0);
  const seen: SeenCompletion[] = [];
  let reply: (body: SeenCompletion['body']) => FakeReply = () => ({ status: 500, raw: 'no reply set' });
  // Slow answers still waiting: ended at stop (a timer left behind keeps the test process alive).
  const waiting = new Map<NodeJS.Timeout, () => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(timer);
        resolve();
      }, ms);
      waiting.set(timer, resolve);
    });
  await server.forPost('/v1/chat/completions').thenCallback(async (req: CompletedRequest) => {
    const body = JSON.parse((await req.body.getText()) ?? '{}');
    seen.push({ headers: req.headers, body });
    const r = reply(body);
    if (r.delayMs) await sleep(r.delayMs);
    if (r.raw !== undefined)
      return { statusCode: r.status ?? 200, headers: { 'content-type': 'text/html' }, body: r.raw };
    const content = typeof r.content === 'string' ? r.content : JSON.stringify(r.content);
    return {
      statusCode: r.status ?? 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: `chatcmpl-${seen.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content, refusal: null },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }),
    };
  });
  return {
    url: `${server.url.replace('localhost', '127.0.0.1')}/v1`,
    model,
    seen,
    answer(next: (body: SeenCompletion['body']) => FakeReply) {
      reply = next;
    },
    stop: () => {
      for (const [timer, resolve] of waiting) {
        clearTimeout(timer);
        resolve();
      }
      waiting.clear();
      return server.stop();
    },
  };
}

export type FakeModel = Awaited<ReturnType<typeof startFakeModel>>;
