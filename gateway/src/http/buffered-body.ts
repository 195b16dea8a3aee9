import type { IncomingMessage } from 'node:http';
import { AppError } from '@pp/http';
import { bodyTooLargeMessage } from './route-dispatch.ts';

const BODY = Symbol('buffered body');
type Buffered = IncomingMessage & { [BODY]?: Buffer };

/**
 * Reads a request's whole body (at most `maxBytes`, 413 past it) for the gateway to look at; the
 * proxy then sends these bytes on instead of the (spent) stream. Bodies otherwise stream to the unit.
 */
export function bufferBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      // The rest is read off and dropped, so that the client reads the 413.
      req.off('data', onData).off('end', onEnd).resume();
      reject(
        new AppError(413, 'payload_too_large', bodyTooLargeMessage(maxBytes), {
          headers: { Connection: 'close' },
        }),
      );
    };
    const onEnd = () => resolve(((req as Buffered)[BODY] = Buffer.concat(chunks, size)));
    req.on('data', onData).on('end', onEnd).once('error', reject);
  });
}

/** The body `bufferBody` read, if it did. */
export const bufferedBodyOf = (req: IncomingMessage): Buffer | undefined => (req as Buffered)[BODY];
