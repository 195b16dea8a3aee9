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

/** How many segments a path has: one per slash (a parameter never holds a slash). */
function segmentCount(path: string): number {
  let n = 0;
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) n++;
  return n;
}

/** The group of a path: its first segment and its number of segments. */
function groupOf(path: string): string {
  const end = path.indexOf('/', 1);
  return `${end === -1 ? path.slice(1) : path.slice(1, end)}/${segmentCount(path)}`;
}

/**
 * Finds the route of a request path. Routes are grouped by first segment and number of segments, so a
 * lookup tries only the few patterns that could match (a path with a parameter in its first segment
 * would need every group: the table has none, and compiling one is refused).
 */
export function createRouteMatcher(table: readonly RouteEntry[]) {
  const groups = new Map<string, Compiled[]>();
  for (const route of table) {
    if (/^\/\{/.test(route.path)) throw new Error(`a route may not start with a parameter: ${route.path}`);
    const group = groupOf(route.path);
    const list = groups.get(group) ?? [];
    list.push(compile(route));
    groups.set(group, list);
  }

  return function match(method: string, path: string): RouteMatch {
    // Dot segments and empty segments never name a resource; refusing them keeps what is proxied exactly what was matched.
    if (UNSAFE_PATH.test(path)) return { kind: 'not_found' };
    const candidates = groups.get(groupOf(path)) ?? [];
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
        for (let i = 0; i < c.names.length; i++) params[c.names[i]!] = decodeURIComponent(m[i + 1]!);
      } catch {
        return { kind: 'not_found' }; // malformed percent-encoding
      }
      return { kind: 'route', route: c.route, params };
    }
    return allowed.length ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
  };
}
