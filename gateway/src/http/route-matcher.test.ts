import { routeTable } from '../routes.ts';
import { createRouteMatcher } from './route-matcher.ts';

const match = createRouteMatcher(routeTable);

describe('route matcher', () => {
  it('finds the entry and its params, HEAD as GET', () => {
    expect(match('GET', '/sessions/ab12cd')).toMatchObject({
      kind: 'route',
      route: { unit: 'sessions', access: 'public' },
      params: { code: 'ab12cd' },
    });
    expect(match('HEAD', '/sessions/ab12cd')).toMatchObject({ kind: 'route' });
    expect(match('PATCH', '/sessions/ab12cd')).toMatchObject({ kind: 'route', route: { access: 'token' } });
    expect(match('POST', '/sessions/AB12CD/stories')).toMatchObject({
      route: { unit: 'stories', access: 'token' },
    });
    expect(match('GET', '/sessions/AB12CD/stories')).toMatchObject({
      route: { unit: 'stories', access: 'public' },
    });
    expect(match('POST', '/webhooks/w1/deliveries/d1/redeliver')).toMatchObject({
      params: { id: 'w1', delivery: 'd1' },
    });
  });

  it('tells a wrong method from an unknown path', () => {
    expect(match('DELETE', '/sessions')).toEqual({ kind: 'method_not_allowed', allowed: ['GET', 'POST'] });
    expect(match('GET', '/sessions/ab12cd/nothing')).toEqual({ kind: 'not_found' });
    expect(match('GET', '/internal/tokens/introspect')).toEqual({ kind: 'not_found' });
    expect(match('GET', '/sessions/')).toEqual({ kind: 'not_found' });
  });

  it('refuses dot segments, empty segments and encoded slashes', () => {
    for (const path of [
      '/sessions/../internal/x',
      '/sessions/./x',
      '//sessions',
      '/sessions/%2e%2e/x',
      '/sessions/a%2Fb',
      '/sessions/%E0%A4%A',
    ]) {
      expect(match('GET', path)).toEqual({ kind: 'not_found' });
    }
  });

  it('tells apart paths of the same first segment by their number of segments', () => {
    expect(match('POST', '/sessions/AB12CD/vote')).toMatchObject({ route: { unit: 'sessions' } });
    expect(match('GET', '/sessions/AB12CD/stories/extra')).toEqual({ kind: 'not_found' });
    expect(() => createRouteMatcher([{ ...routeTable[0]!, path: '/{code}/x' }])).toThrow(
      /may not start with a parameter/,
    );
  });
});
