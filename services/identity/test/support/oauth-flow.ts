/**
 * Walks a browser through social sign-on: start (via `base`), the provider's authorize page, back to the
 * callback. `browser` is what that browser sends to the callback (the cookies start set).
 */
export async function followSignOn(base: string, provider: string, headers: Record<string, string> = {}) {
  const start = await fetch(`${base}/auth/oauth/${provider}/start`, { redirect: 'manual', headers });
  const authorizeUrl = start.headers.get('location');
  if (start.status !== 302 || !authorizeUrl) throw new Error(`start answered ${start.status}`);
  const setCookies = start.headers.getSetCookie();
  const cookie = setCookies.map((c) => c.split(';')[0]).join('; ');
  const atProvider = await fetch(authorizeUrl, { redirect: 'manual' });
  const callback = new URL(atProvider.headers.get('location') ?? '');
  // The callback URL names the public base URL; the test sends it to the server under test.
  const callbackPath = `${callback.pathname}${callback.search}`;
  return {
    authorizeUrl: new URL(authorizeUrl),
    callbackPath,
    callbackQuery: callback.searchParams,
    setCookies,
    browser: { cookie } as Record<string, string>,
  };
}
