import type { Request } from 'express';

const IP = Symbol('client ip');

/**
 * The client address per the trust-proxy setting, worked out once per request (express recomputes
 * `req.ip` on every read, parsing X-Forwarded-For even when no proxy is trusted).
 */
export function clientIp(req: Request): string {
  const r = req as Request & { [IP]?: string };
  if (r[IP] !== undefined) return r[IP];
  const trusted = req.app.get('trust proxy') !== false;
  return (r[IP] = (trusted ? req.ip : undefined) ?? req.socket.remoteAddress ?? '');
}
