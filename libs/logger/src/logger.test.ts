import { Writable } from 'node:stream';
import { createLogger, runWithContext } from './index.ts';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, logger: createLogger({ name: 'test', destination }) };
}

describe('logger', () => {
  it('puts the request and correlation ids of the current context on every line', async () => {
    const { lines, logger } = capture();
    await runWithContext({ requestId: 'req-1', correlationId: 'corr-1' }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      logger.info({ story_id: 's1' }, 'story revealed');
    });
    logger.info('outside');
    expect(lines[0]).toMatchObject({
      request_id: 'req-1',
      correlation_id: 'corr-1',
      story_id: 's1',
      level: 'info',
    });
    expect(lines[1]).not.toHaveProperty('request_id');
  });

  it('redacts secrets', () => {
    const { lines, logger } = capture();
    logger.info({ body: { password: 'hunter22', token: 'abc' } }, 'login');
    expect(JSON.stringify(lines[0])).not.toMatch(/hunter22|"abc"/);
  });
});
