import type { RouteEntry } from '../routes.ts';

export type RouteMatch =
  | { kind: 'route'; route: RouteEntry; params: Record<string, string> }
  /** The path exists, but not with this method. */
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

interface Compiled {
  route: RouteEntry;
  regex: RegExp;
  names: string[];
}

const UNSAFE_PATH = /\/\/|\/\.\.?(\/|$)|%2e|%2f|%5c|\\/i;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(route: RouteEntry): Compiled {
  const names: string[] = [];
  const pattern = route.path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return escape(segment);
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { route, regex: new RegExp(`^${pattern}$`), names };
}

/** Finds the route of a request path, grouped by first segment so a lookup tries only a handful of patterns. */
export function createRouteMatcher(table: readonly RouteEntry[]) {
  const byFirstSegment = new Map<string, Compiled[]>();
  for (const route of table) {
    const first = route.path.split('/')[1] ?? '';
    const list = byFirstSegment.get(first) ?? [];
    list.push(compile(route));
    byFirstSegment.set(first, list);
  }

  return function match(method: string, path: string): RouteMatch {
    // Dot segments and empty segments never name a resource; refusing them keeps what is proxied exactly what was matched.
    if (UNSAFE_PATH.test(path)) return { kind: 'not_found' };
    const candidates = byFirstSegment.get(path.split('/', 2)[1] ?? '') ?? [];
    const wanted = method === 'HEAD' ? 'GET' : method;
    const allowed: string[] = [];
    for (const c of candidates) {
      const m = c.regex.exec(path);
      if (!m) continue;
      if (c.route.method !== wanted) {
        allowed.push(c.route.method);
        continue;
      }
      const params: Record<string, string> = {};
      try {
        c.names.forEach((name, i) => {
          params[name] = decodeURIComponent(m[i + 1]!);
        });
      } catch {
        return { kind: 'not_found' }; // malformed percent-encoding
      }
      return { kind: 'route', route: c.route, params };
    }
    return allowed.length ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
  };
}
