import type { FakeResponse } from './fake-server.ts';

/**
 * Answers of 200 that are not what a tracker's API documents: JSON of another shape (an object, a list
 * of odd items) and text (a proxy's "ok", a sign-in or error page). Each means the tracker did not
 * answer as expected: 503 provider_unavailable, never a 500 and never a refusal of the credentials.
 */
export const ODD_ANSWERS: ReadonlyArray<readonly [string, FakeResponse]> = [
  ['JSON of another shape', { json: { not: 'what you expect', items: 5 } }],
  ['a list of odd items', { json: [{ id: 1 }, { number: 'x', title: null }, null, 5] }],
  ['plain text', { body: 'ok', headers: { 'content-type': 'text/plain' } }],
  ['an HTML page', { body: '<html><body>Hello</body></html>', headers: { 'content-type': 'text/html' } }],
];
