/**
 * One declaration per public path: the gateway's route table (what it proxies, to which unit, with or
 * without a token) and the units' descriptions of their paths (`src/api/docs.ts`, which the gateway
 * asks each unit for at run time) must say the same of every path, or this fails naming the path.
 */
import type { RouteDoc } from '@pp/http';
import { routeTable, type RouteEntry } from '../gateway/src/routes.ts';
import { unitDescriptions } from './support/api-document.ts';

const keyOf = (r: Pick<RouteEntry, 'method' | 'path'>) => `${r.method} ${r.path}`;
const successes = (doc: RouteDoc) =>
  Object.keys(doc.responses ?? {})
    .map(Number)
    .filter((status) => status < 400);

/** What a unit's description says of a path, in the route table's terms. */
function described(unit: string, key: string, doc: RouteDoc) {
  const ok = successes(doc);
  const media = Object.keys(doc.responses?.[200]?.content ?? {}).concat(
    Object.values(doc.responses?.[200]?.headers ?? {}),
  );
  return {
    key,
    unit,
    access: doc.public ? 'public' : 'token',
    success: ok,
    stream: media.some((m) => m.includes('text/event-stream')),
  };
}

/** What the route table says of it; its success must be one the unit documents. */
function routed(route: RouteEntry, doc: RouteDoc | undefined) {
  const ok = doc ? successes(doc) : [];
  const success = route.success ?? 200;
  return {
    key: keyOf(route),
    unit: route.unit,
    access: route.access,
    // A path that always refuses (GET /mcp: 405) documents no success; the table then claims none.
    success: ok.length === 0 && route.success === undefined ? [] : ok.includes(success) ? ok : [success],
    stream: route.stream === true,
  };
}

describe('the route table and the units’ descriptions of their paths', () => {
  const docs = new Map(
    Object.entries(unitDescriptions).flatMap(([unit, d]) =>
      Object.entries(d).map(([key, doc]) => [key, { unit, doc }] as const),
    ),
  );

  it('name the same paths, each with one unit', () => {
    const routedKeys = routeTable.map(keyOf);
    expect(new Set(routedKeys).size).toBe(routedKeys.length);
    expect([...docs.keys()].sort()).toEqual([...routedKeys].sort());
  });

  it('agree on each path: its unit, whether it needs a token, its success status, a stream', () => {
    const fromUnits = routeTable
      .filter((r) => docs.has(keyOf(r)))
      .map((r) => described(docs.get(keyOf(r))!.unit, keyOf(r), docs.get(keyOf(r))!.doc));
    const fromTable = routeTable
      .filter((r) => docs.has(keyOf(r)))
      .map((r) => routed(r, docs.get(keyOf(r))!.doc));
    expect(fromTable).toEqual(fromUnits);
  });
});
