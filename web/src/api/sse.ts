/** One message of a Server-Sent Events stream. */
export interface SseMessage {
  /** The `event:` field, `message` when absent. */
  type: string;
  data: string;
  /** The `id:` field; undefined when the message had none. */
  id: string | undefined;
}

/**
 * A parser of the text/event-stream format, fed chunks as they arrive (a line or a message may span
 * chunks). Comments (`:` lines, the keep-alives) are skipped; a message without data is not one.
 */
export function createSseParser(onMessage: (m: SseMessage) => void) {
  let buffer = '';
  let type = '';
  let data: string[] = [];
  let id: string | undefined;
  let pendingCr = false;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onMessage({ type: type || 'message', data: data.join('\n'), id });
      type = '';
      data = [];
      id = undefined;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
  };

  return (chunk: string) => {
    // A CR at the end of the last chunk may be the first half of a CRLF.
    if (pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    pendingCr = false;
    buffer += chunk;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      line(buffer.slice(start, i));
      if (c === '\r') {
        if (i + 1 === buffer.length) pendingCr = true;
        else if (buffer[i + 1] === '\n') i++;
      }
      start = i + 1;
    }
    buffer = buffer.slice(start);
  };
}
