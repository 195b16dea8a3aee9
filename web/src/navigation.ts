import { useEffect, useState } from 'preact/hooks';

/** The app's own paths: `/` and `/room/{code}` (the gateway answers both with the app). */
export type Route = { page: 'home' } | { page: 'room'; code: string };

export function routeOf(path: string): Route {
  const room = /^\/room\/([^/]+)\/?$/.exec(path);
  return room ? { page: 'room', code: decodeURIComponent(room[1]!).toUpperCase() } : { page: 'home' };
}

export const roomPath = (code: string) => `/room/${encodeURIComponent(code.toUpperCase())}`;

export function navigate(path: string) {
  if (path === location.pathname) return;
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.pathname));
  useEffect(() => {
    const update = () => setRoute(routeOf(location.pathname));
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return route;
}

/** An in-app link: a real link (open in a new tab works), followed without reloading. */
export function follow(e: MouseEvent) {
  const a = e.currentTarget as HTMLAnchorElement;
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.pathname);
}
