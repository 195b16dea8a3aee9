/**
 * The rate limits as a room lives them, with the default settings (60 requests a minute): 50 people
 * behind one office address open a room, join it and play ten rounds making exactly the web room's
 * requests, while its owner runs the rounds with a bearer token, and nobody is refused. From the same
 * address, requests outside a room and lookups of codes that do not exist stay limited to 60 a minute.
 */
import { randomBytes } from 'node:crypto';
import { startPlatform, type Platform } from './support/platform.ts';
import { webRoomVisit } from './support/web-room-visit.ts';

const PEOPLE = 50;
const ROUNDS = 10;

let p: Platform;
beforeAll(async () => {
  p = await startPlatform({ gatewayEnv: { RATE_LIMIT_PER_MINUTE: '60' } });
});
afterAll(() => p.stop());

/** Waits until the window of the address's allowance that a response told of has ended. */
const windowEnded = (res: { headers: Headers }) =>
  new Promise((r) =>
    setTimeout(r, Math.max(0, Number(res.headers.get('x-ratelimit-reset')) * 1000 - Date.now() + 1_100)),
  );

/** A code of the right shape that no room has (the room's own code is six of these letters too: a clash is one in 450,000). */
/**
 * Each person's step, ten people at a time (people do not all click in the same millisecond, and a
 * machine running other tests times out beside 50 at once); what is counted is the same.
 */
async function everyone<T>(people: T[], step: (person: T, i: number) => Promise<unknown>) {
  for (let from = 0; from < people.length; from += 10)
    await Promise.all(people.slice(from, from + 10).map((person, i) => step(person, from + i)));
}

const unknownCode = () => Array.from(randomBytes(6), (b) => 'ABCDEFGHJKLMNPQRSTUVWXYZ'[b % 24]).join('');

it('lets 50 people behind one address play ten rounds without a 429, and keeps the address limited outside the room', async () => {
  const registered = await p.client.post('/auth/register', {
    body: {
      email: `olga-${randomBytes(4).toString('hex')}@example.com`,
      password: 'correct horse battery',
      name: 'Olga',
    },
  });
  expect(registered.headers.get('ratelimit-policy')).toMatch(/^"ip"; q=60; w=60/);
  const owner = { token: registered.body.token as string };
  const ownerAnswers: number[] = [];
  const asOwner = async (method: 'post' | 'get', path: string, body?: unknown) => {
    const res = await (method === 'post'
      ? p.client.raw.post(path, { body: body ?? {}, ...owner })
      : p.client.raw.get(path, owner));
    ownerAnswers.push(res.status);
    return res;
  };
  const code = (await asOwner('post', '/sessions', { name: 'Office planning' })).body.session.code as string;

  const people = Array.from({ length: PEOPLE }, () => webRoomVisit(p.url, code));
  // Everyone opens the link and joins at the same moment (the meeting starts): a room's joins take
  // turns in the unit, holding none of the connections other requests need.
  await Promise.all(people.map((person) => person.openRoomPage()));
  await Promise.all(people.map((person, i) => person.join(`Person ${i + 1}`)));
  for (let round = 1; round <= ROUNDS; round++) {
    const story = (await asOwner('post', `/sessions/${code}/stories`, { title: `Story ${round}` })).body
      .story;
    await asOwner('post', `/stories/${story.id}/activate`);
    await everyone(people, (person) => person.vote('5'));
    await asOwner('post', `/stories/${story.id}/reveal`);
    await everyone(people, (person) => person.readAfterReveal());
  }
  for (const person of people) person.leave();

  const statuses = new Map<number, number>();
  for (const a of people.flatMap((person) => person.answers))
    statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
  // Per person: the room's read and its stream, a join and the stream again with the seat, 10 votes and 10 reads.
  expect(Object.fromEntries(statuses)).toEqual({ 200: PEOPLE * (2 + 2 + ROUNDS + ROUNDS) });
  expect(new Set(ownerAnswers)).toEqual(new Set([200, 201]));
  const lastVote = people[0]!.answers.at(-4)!;
  expect(lastVote.headers.get('ratelimit-policy')).toMatch(/^"participant"/);

  // Outside a room, the address has 60 requests a minute (the register counted in its window).
  await windowEnded(registered);
  const outside = [];
  for (let i = 0; i < 61; i++) outside.push((await p.client.get('/auth/oauth/providers')).status);
  expect(outside.slice(0, 60)).toEqual(Array(60).fill(200));
  expect(outside[60]).toBe(429);

  // Codes that do not exist: 60 a minute from the address, then 429 (and no room either).
  const spent = await p.client.get('/auth/oauth/providers');
  await windowEnded(spent);
  const lookups = [];
  for (let i = 0; i < 61; i++) lookups.push((await p.client.get(`/sessions/${unknownCode()}`)).status);
  expect(lookups.slice(0, 60)).toEqual(Array(60).fill(404));
  expect(lookups[60]).toBe(429);
  expect((await p.client.get(`/sessions/${code}`)).status).toBe(429);
}, 300_000);
