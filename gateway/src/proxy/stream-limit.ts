import type { Request, Response } from 'express';
import { AppError } from '@pp/http';
import { clientIp } from '../http/client-ip.ts';

/**
 * At most `limit` live streams open at once from one client address on this gateway replica. A stream
 * counts against the rate limit only when it opens, so without this one address could pile up
 * streams (and their sockets here and at the unit) by the thousand over an hour. Closing a stream
 * frees its place at once.
 */
export function streamLimit(limit: number) {
  const open = new Map<string, number>();
  return (req: Request, res: Response): void => {
    const address = clientIp(req);
    const count = open.get(address) ?? 0;
    if (count >= limit) {
      res.setHeader('Retry-After', '5');
      throw new AppError(
        429,
        'too_many_streams',
        `At most ${limit} live room streams may be open at once from one address: close one first`,
      );
    }
    open.set(address, count + 1);
    res.once('close', () => {
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  };
}
