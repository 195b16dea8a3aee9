import { getLocal, type CompletedRequest } from 'mockttp';

/** A request as the fake saw it: what tests assert on. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export interface FakeResponse {
  status?: number;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * A local server on 127.0.0.1 that speaks a provider's protocol through `route` (which may keep state),
 * recording every request. `failNext` makes the next matching requests answer something else first
 * (a rate limit, a 401) to test how the client copes.
 */
export async function startFake(route: (req: SeenRequest) => FakeResponse | Promise<FakeResponse>) {
  const server = getLocal();
  // Port 0: the system gives a free port as it listens (a search for one first can be raced by
  // another test worker starting a server at the same moment).
  await server.start(0);
  const seen: SeenRequest[] = [];
  const failures: Array<{ match: (r: SeenRequest) => boolean; response: FakeResponse }> = [];
  await server.forAnyRequest().thenCallback(async (req: CompletedRequest) => {
    const url = new URL(req.url);
    const text = (await req.body.getText()) ?? '';
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const request: SeenRequest = {
      method: req.method,
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      text,
      json,
    };
    seen.push(request);
    const failure = failures.findIndex((f) => f.match(request));
    const response = failure >= 0 ? failures.splice(failure, 1)[0]!.response : await route(request);
    return {
      statusCode: response.status ?? 200,
      headers: {
        ...(response.json !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}),
        ...response.headers,
      },
      ...(response.json !== undefined
        ? { body: JSON.stringify(response.json) }
        : { body: response.body ?? '' }),
    };
  });
  return {
    url: server.url.replace('localhost', '127.0.0.1'),
    seen,
    failNext(match: (r: SeenRequest) => boolean, response: FakeResponse) {
      failures.push({ match, response });
    },
    stop: () => server.stop(),
  };
}

export type Fake = Awaited<ReturnType<typeof startFake>>;
