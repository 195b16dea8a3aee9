/**
 * One declaration per public path: the gateway's route table (what it proxies, to which unit, with or
 * without a token) is derived from the units' descriptions of their paths (`src/api` docs, which the
 * gateway also asks each unit for at run time) by `npm run generate:client`. This fails when the
 * committed table is not what the descriptions derive now, naming the first path that differs.
 */
import { readFileSync } from 'node:fs';
import { routeTable, type RouteEntry } from '../gateway/src/routes.ts';
import { derivedRoutes } from './support/api-document.ts';
import { generatedRouteTable, routeTableFile } from './support/route-table-file.ts';

const keyOf = (r: Pick<RouteEntry, 'method' | 'path'>) => `${r.method} ${r.path}`;

describe('the route table and the units’ descriptions of their paths', () => {
  it('name the same paths, each with one unit, and say the same of each (else run npm run generate:client)', () => {
    const routedKeys = routeTable.map(keyOf);
    expect(new Set(routedKeys).size).toBe(routedKeys.length);
    const derived = new Map(derivedRoutes().map((r) => [keyOf(r), r]));
    expect([...derived.keys()].sort()).toEqual([...routedKeys].sort());
    expect(routeTable.filter((r) => JSON.stringify(r) !== JSON.stringify(derived.get(keyOf(r))))).toEqual([]);
    expect(routeTable.find((r) => keyOf(r) === 'GET /sessions/{code}/events')).toMatchObject({
      unit: 'sessions',
      access: 'public',
      stream: true,
    });
    expect(routeTable.find((r) => keyOf(r) === 'POST /sessions')).toMatchObject({
      access: 'token',
      success: 201,
    });
  });

  it('is committed as generated', async () => {
    expect(readFileSync(routeTableFile, 'utf8')).toBe(await generatedRouteTable());
  });
});
