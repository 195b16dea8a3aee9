export interface SseEvent {
  id: string;
  event: string;
  // What a test reads from an event's data is up to the test.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

/** A Server-Sent Events client for tests: the events so far, the raw text, and a way to wait for more. */
export async function openStream(url: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  let text = '';
  let buffer = '';
  const reading = (async () => {
    if (!res.body || !res.headers.get('content-type')?.includes('text/event-stream')) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) {
        const part = decoder.decode(chunk, { stream: true });
        text += part;
        buffer += part;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((line) => line && !line.startsWith(':'))
              .map((line) => [
                line.slice(0, line.indexOf(':')),
                line.slice(line.indexOf(':') + 1).trimStart(),
              ]),
          );
          if (fields.data !== undefined) {
            events.push({
              id: fields.id ?? '',
              event: fields.event ?? 'message',
              data: JSON.parse(fields.data),
            });
          }
        }
      }
    } catch {
      // aborted, or the server ended the stream
    }
  })();

  const waitFor = async (predicate: (e: SseEvent) => boolean, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.find(predicate);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no such event; got ${events.map((e) => e.event).join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    status: res.status,
    headers: res.headers,
    events,
    text: () => text,
    waitFor,
    /** Resolves when the server ends the stream. */
    ended: reading,
    close: async () => {
      abort.abort();
      await reading;
    },
  };
}
