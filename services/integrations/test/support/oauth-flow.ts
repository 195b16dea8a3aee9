/**
 * Starts an OAuth connection at `base` (the unit, or the gateway) as the caller `headers` name, the way
 * a browser's fetch does: the 302 is not followed (the browser would go to the provider), and the
 * cookies it sets are what that browser brings to the callback (`browser`).
 */
export async function startConnection(
  base: string,
  provider: string,
  headers: Record<string, string>,
  name?: string,
) {
  const query = name === undefined ? '' : `?${new URLSearchParams({ name })}`;
  const res = await fetch(`${base}/integrations/oauth/${provider}/start${query}`, {
    headers,
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`start answered ${res.status}: ${await res.text()}`);
  const setCookies = res.headers.getSetCookie();
  const url = new URL(location);
  return {
    location: url,
    state: url.searchParams.get('state')!,
    challenge: url.searchParams.get('code_challenge') ?? '',
    setCookies,
    browser: { cookie: setCookies.map((c) => c.split(';')[0]).join('; ') } as Record<string, string>,
  };
}

/** The callback the provider sends the browser to, with the code of the authorization. */
export const callbackPath = (provider: string, state: string, extra: Record<string, string> = {}) =>
  `/integrations/oauth/${provider}/callback?${new URLSearchParams({ code: 'the-code', state, ...extra })}`;
