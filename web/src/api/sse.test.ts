import { createSseParser, type SseMessage } from './sse.ts';

const parse = (chunks: string[]) => {
  const seen: SseMessage[] = [];
  const push = createSseParser((m) => seen.push(m));
  for (const c of chunks) push(c);
  return seen;
};

describe('the event-stream parser', () => {
  it('reads typed messages with ids, skipping the keep-alive comments', () => {
    expect(
      parse([': keep-alive\n\n', 'event: vote.cast\nid: e1\ndata: {"a":1}\n\n', 'data: plain\n\n']),
    ).toEqual([
      { type: 'vote.cast', id: 'e1', data: '{"a":1}' },
      { type: 'message', id: undefined, data: 'plain' },
    ]);
  });

  it('puts together messages and lines split across chunks, with any line ending', () => {
    const text = 'event: story.revealed\r\nid: e2\r\ndata: {"x":\r\ndata: 2}\r\n\r\nevent: a\rdata: b\r\r';
    const whole = parse([text]);
    expect(whole).toEqual([
      { type: 'story.revealed', id: 'e2', data: '{"x":\n2}' },
      { type: 'a', id: undefined, data: 'b' },
    ]);
    // Every way of cutting it in two gives the same messages.
    for (let i = 1; i < text.length; i++) expect(parse([text.slice(0, i), text.slice(i)])).toEqual(whole);
  });

  it('ignores a message without data and unknown fields', () => {
    expect(parse(['event: x\nid: 1\n\nretry: 10\nfoo: bar\ndata\n\n'])).toEqual([
      { type: 'message', id: undefined, data: '' },
    ]);
  });
});
