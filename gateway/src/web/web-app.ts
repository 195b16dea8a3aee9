import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router, type Request, type Response, type NextFunction } from 'express';
import type { Logger } from '@pp/logger';
import { readOnly } from '../http/read-only.ts';

/**
 * The page may load only its own scripts, styles and images, and talk only to this origin (the API
 * and the live room stream). Nothing inline, no framing.
 */
const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A room's link, `/room/{code}`: matched as written (a named parameter is decoded, and a broken one throws). */
const ROOM_PAGE = /^\/room\/[^/]+$/;
const decodes = (path: string) => {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
};

/** `GET /` is the app for a browser (Accept prefers text/html), the JSON welcome for everyone else (curl's `*\/*`). */
const wantsHtml = (req: Request) => req.accepts(['application/json', 'text/html']) === 'text/html';

/**
 * The built web app (`index.html` and `assets/` of `dir`) at paths that are not the API's: `/`
 * (shared with the JSON welcome: HTML only for a client that prefers it), `/room/{code}` (the link a
 * room shares) and `/assets/` (content-hashed files). When it has not been built, the gateway serves
 * the API only and says so once; the folder is read on every request, so a build made while the
 * gateway runs is served without a restart.
 */
export function webAppRouter(dir: string, logger: Logger): Router {
  const index = join(dir, 'index.html');
  if (existsSync(index)) logger.info({ dir }, 'web app: serving the room at / and /room/{code}');
  else logger.warn({ dir }, 'web app not built: serving the API only (npm run build -w web builds it)');

  // The page itself is always revalidated (a new build names new assets); the assets never change.
  const sendIndex = (_req: Request, res: Response, next: NextFunction) => {
    res.sendFile(
      index,
      {
        cacheControl: false,
        headers: { 'Cache-Control': 'no-cache', 'Content-Security-Policy': APP_CSP },
      },
      (err?: NodeJS.ErrnoException) => {
        if (!err) return;
        if (err.code === 'ENOENT' && !res.headersSent) next();
        else if (!res.headersSent) next(err);
      },
    );
  };

  const router = Router();
  router.get('/', (req, res, next) => {
    res.vary('Accept');
    return wantsHtml(req) ? sendIndex(req, res, next) : next();
  });
  // A room's page is read, never written: any other method is 405, as on an API path. A code whose
  // percent-encoding is broken names no room (the API's 404, as for any path value that names
  // nothing); the app could not read it either.
  router.all(ROOM_PAGE, (req, res, next) => {
    if (!decodes(req.path)) return next();
    if (req.method === 'GET' || req.method === 'HEAD') return sendIndex(req, res, next);
    return readOnly(req, res, next);
  });
  router.use(
    '/assets',
    express.static(join(dir, 'assets'), {
      index: false,
      redirect: false,
      dotfiles: 'ignore',
      immutable: true,
      maxAge: '365d',
    }),
  );
  return router;
}
