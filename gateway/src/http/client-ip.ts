import type { Request } from 'express';

const IP = Symbol('client ip');

/** The client address per the trust-proxy setting, worked out once per request (express recomputes `req.ip` on every read). */
export function clientIp(req: Request): string {
  const r = req as Request & { [IP]?: string };
  return (r[IP] ??= req.ip ?? req.socket.remoteAddress ?? '');
}
