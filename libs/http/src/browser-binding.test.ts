import { createHash } from 'node:crypto';
import express from 'express';
import {
  browserHashOf,
  clearBrowserCookie,
  cookieOf,
  createBrowserNonce,
  listen,
  setBrowserCookie,
  type RunningServer,
} from './index.ts';

let server: RunningServer;

beforeAll(async () => {
  const app = express();
  // The cookie named by the query, bound to the URL given: set, cleared, or read back.
  app.get('/:action', (req, res) => {
    const cookie = { name: 'pp_flow', url: String(req.query.url), maxAgeSeconds: 600 };
    if (req.params.action === 'set') setBrowserCookie(res, cookie, 'the-nonce');
    if (req.params.action === 'clear') clearBrowserCookie(res, cookie);
    res.json({ value: cookieOf(req, 'pp_flow') ?? null });
  });
  server = await listen(app, 0, '127.0.0.1');
});
afterAll(() => server.close());

const ask = async (action: string, url: string, cookie?: string) => {
  const res = await fetch(`${server.url}/${action}?url=${encodeURIComponent(url)}`, {
    headers: cookie === undefined ? {} : { cookie },
  });
  return { setCookie: res.headers.getSetCookie(), body: (await res.json()) as { value: string | null } };
};

describe('binding a redirect flow to its browser', () => {
  it('keeps a 256-bit nonce in the browser and only its SHA-256 on the server', () => {
    const nonce = createBrowserNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createBrowserNonce()).not.toBe(nonce);
    expect(browserHashOf(nonce)).toBe(createHash('sha256').update(nonce).digest('hex'));
  });

  it('sets the cookie HttpOnly and Lax, for the callback path only, Secure on https, for the lifetime given', async () => {
    const { setCookie } = await ask('set', 'https://poker.example/api/oauth/github/callback');
    expect(setCookie).toEqual([
      expect.stringMatching(
        /^pp_flow=the-nonce; Max-Age=600; Path=\/api\/oauth\/github\/callback; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/,
      ),
    ]);
    const plain = await ask('set', 'http://127.0.0.1:8080/oauth/github/callback');
    expect(plain.setCookie[0]).not.toMatch(/Secure/);
  });

  it('clears it with the same path, and reads the first cookie of its name', async () => {
    const { setCookie, body } = await ask(
      'clear',
      'https://poker.example/oauth/x/callback',
      'other=1; pp_flow_old=2; pp_flow=first; pp_flow=second',
    );
    expect(setCookie[0]).toMatch(/^pp_flow=; Path=\/oauth\/x\/callback; Expires=Thu, 01 Jan 1970/);
    expect(body.value).toBe('first');
    expect((await ask('read', 'https://poker.example/', 'pp_flow=')).body.value).toBeNull();
    expect((await ask('read', 'https://poker.example/')).body.value).toBeNull();
  });
});
