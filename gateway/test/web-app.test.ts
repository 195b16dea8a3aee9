import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import type { Logger } from '@pp/logger';
import { api, startApp } from '@pp/testing';
import { webAppRouter } from '../src/web/web-app.ts';
import { startGateway, startStubUnits, type GatewayHarness } from './support/gateway-harness.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const PAGE =
  '<!doctype html><title>Planning poker</title><script type="module" src="/assets/app-Ab12.js"></script>';
const SCRIPT = 'console.log("room")';

/** A built app as Vite leaves it: index.html and content-hashed assets. */
function fakeBuild() {
  const dir = mkdtempSync(join(tmpdir(), 'pp-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), PAGE);
  writeFileSync(join(dir, 'assets', 'app-Ab12.js'), SCRIPT);
  return dir;
}

describe('gateway: the web room', () => {
  let units: Awaited<ReturnType<typeof startStubUnits>>;
  let gateway: GatewayHarness;
  let dir: string;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(gateway.url + path, { headers: { 'x-forwarded-for': '10.4.0.1', ...headers } });

  beforeAll(async () => {
    dir = fakeBuild();
    units = await startStubUnits();
    gateway = await startGateway({ env: { ...units.env, RATE_LIMIT_PER_MINUTE: '3', WEB_DIR: dir } });
  });
  afterAll(async () => {
    await gateway.stop();
    await units.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers / with the page to a browser, revalidated every time, under a CSP that allows only its own files', async () => {
    const res = await get('/', { accept: BROWSER_ACCEPT });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toBe(PAGE);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('vary')).toMatch(/Accept/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('keeps the JSON welcome for clients that do not prefer HTML (curl sends */*)', async () => {
    for (const accept of ['*/*', 'application/json', 'application/json, text/html;q=0.5']) {
      const res = await api(gateway.url).get('/', { headers: { accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('vary')).toMatch(/Accept/);
      expect(res.body).toMatchObject({ success: true, docs: '/docs' });
    }
  });

  it('answers the link of a room with the page, whatever the client accepts', async () => {
    for (const accept of [BROWSER_ACCEPT, '*/*']) {
      const res = await get('/room/AB12CD', { accept });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(PAGE);
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves the hashed assets as immutable for a year', async () => {
    const res = await get('/assets/app-Ab12.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(await res.text()).toBe(SCRIPT);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('leaves every other path to the API: JSON answers and JSON 404s; another method on a room is 405', async () => {
    const client = api(gateway.url);
    // Unknown paths are API requests: each from an address of its own, to stay within the limit.
    let n = 0;
    const headers = () => ({ accept: BROWSER_ACCEPT, 'x-forwarded-for': `10.4.1.${++n}` });
    // A code whose percent-encoding is broken names no room, like any path value that names nothing.
    const broken = ['/room/%', '/room/AB%E0%A4%A', '/room/%ZZ'];
    for (const path of [
      '/assets/missing.js',
      '/assets/',
      '/room/AB12CD/extra',
      '/room',
      '/index.html',
      ...broken,
    ]) {
      const res = await client.get(path, { headers: headers() });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'route_not_found' } });
    }
    const lookup = await client.get('/sessions/AB12CD', { headers: headers() });
    expect(lookup.status).toBe(200);
    expect(lookup.headers.get('content-type')).toMatch(/^application\/json/);
    // A room's page is there for GET and HEAD only: another method is 405, with the methods it takes.
    const posted = await client.post('/room/AB12CD', { body: {}, headers: headers() });
    expect([posted.status, posted.body.error.code, posted.headers.get('allow')]).toEqual([
      405,
      'method_not_allowed',
      'GET, HEAD',
    ]);
    const postedBroken = await client.post('/room/%', { body: {}, headers: headers() });
    expect([postedBroken.status, postedBroken.body.error.code]).toEqual([404, 'route_not_found']);
  });

  it('never counts the pages and files against the API rate limit', async () => {
    const me = { 'x-forwarded-for': '10.4.0.3', accept: BROWSER_ACCEPT };
    const paths = ['/', '/room/AB12CD', '/assets/app-Ab12.js'];
    const flood = await Promise.all(
      Array.from({ length: 24 }, (_, i) => fetch(gateway.url + paths[i % 3], { headers: me })),
    );
    expect(flood.map((r) => r.status)).toEqual(Array.from({ length: 24 }, () => 200));
    // (A vote without a participant token counts against the address.)
    const first = await api(gateway.url).post('/sessions/AB12CD/vote', { body: {}, headers: me });
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});

describe('gateway: without a built web room', () => {
  it('says so in its log, serves the API only, and serves a build made later without a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-web-'));
    const said: string[] = [];
    const logger = {
      info: (_: unknown, msg: string) => said.push(`info ${msg}`),
      warn: (_: unknown, msg: string) => said.push(`warn ${msg}`),
    } as unknown as Logger;
    const app = express();
    app.use(webAppRouter(dir, logger));
    app.use((_req, res) => void res.status(404).json({ fallthrough: true }));
    const server = await startApp(app);
    try {
      expect(said).toEqual([expect.stringMatching(/^warn web app not built: serving the API only/)]);
      for (const path of ['/', '/room/AB12CD', '/assets/app-Ab12.js']) {
        const res = await fetch(server.url + path, { headers: { accept: BROWSER_ACCEPT } });
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ fallthrough: true });
      }
      const built = fakeBuild();
      rmSync(dir, { recursive: true });
      renameSync(built, dir);
      const res = await fetch(`${server.url}/room/AB12CD`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(PAGE);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
