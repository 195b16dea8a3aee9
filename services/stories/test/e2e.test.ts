/**
 * End to end: the REAL sessions service and the stories service, in process, on one event prefix.
 * (Only this file imports another unit's code: production code never does.)
 */
import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { startService, type ServiceDefinition, type StartedService } from '@pp/runtime';
import { api, createTestDatabase, testNatsUrl, uniqueName, type TestDatabase } from '@pp/testing';
import { readConfig as readSessionsConfig } from '../../sessions/src/config.ts';
import { sessionsService } from '../../sessions/src/service.ts';
import { definition } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { as, KEY, logger, until } from './support/stories-harness.ts';

describe('end to end with the real sessions service', () => {
  const prefix = uniqueName('e2e').toLowerCase();
  const dbs: TestDatabase[] = [];
  let sessions: StartedService;
  let stories: StartedService;
  let storiesDef: ServiceDefinition;
  const sessionsApi = api(() => sessions.server.url);
  const storiesApi = api(() => stories.server.url);

  beforeAll(async () => {
    const [sessionsDb, storiesDb] = await Promise.all([
      createTestDatabase('e2e_sessions'),
      createTestDatabase('e2e_stories'),
    ]);
    dbs.push(sessionsDb, storiesDb);
    const common = { NATS_URL: testNatsUrl(), INTERNAL_SIGNING_KEY: KEY, EVENTS_PREFIX: prefix, PORT: '0' };
    sessions = await startService(
      {
        ...sessionsService(readSessionsConfig({ ...common, DATABASE_URL: sessionsDb.url })),
        host: '127.0.0.1',
      },
      logger,
    );
    storiesDef = {
      ...definition(
        readConfig({ ...common, DATABASE_URL: storiesDb.url, SESSIONS_URL: sessions.server.url }),
      ),
      host: '127.0.0.1',
    };
    stories = await startService(storiesDef, logger);
  });

  afterAll(async () => {
    await stories.stop();
    const jsm = await jetstreamManager(sessions.runtime.nc);
    for (const stream of [sessions.runtime.bus.stream, sessions.runtime.bus.deadLetterStream]) {
      await jsm.streams.delete(stream).catch(() => undefined);
    }
    await sessions.stop();
    await Promise.all(dbs.map((d) => d.drop()));
  });

  const createSession = async (owner: string, body: Record<string, unknown> = {}) => {
    const res = await sessionsApi.post('/sessions', { body: { name: 'Sprint', ...body }, ...as(owner) });
    expect(res.status).toBe(201);
    return res.body.session as { id: string; code: string };
  };
  const addStory = async (code: string, owner: string, title: string) => {
    const res = await storiesApi.post(`/sessions/${code}/stories`, { body: { title }, ...as(owner) });
    expect(res.status).toBe(201);
    return res.body.story.id as string;
  };
  const join = async (code: string, name: string) => {
    const res = await sessionsApi.post(`/sessions/${code}/join`, { body: { name } });
    expect(res.status).toBe(200);
    return res.body.participant.id as number;
  };
  const vote = (code: string, participantId: number, value: string) =>
    sessionsApi.post(`/sessions/${code}/vote`, { body: { participant_id: participantId, vote: value } });
  const currentStory = (code: string, storyId: string) =>
    until(
      async () => (await sessionsApi.get(`/sessions/${code}`)).body.session?.current_story?.id === storyId,
      15_000,
    );

  it('50 participants vote, and the reveal has all 50 votes', async () => {
    const owner = randomUUID();
    const session = await createSession(owner);
    const storyId = await addStory(session.code, owner, 'Checkout'); // right after creation: the fallback
    const participants = await Promise.all(
      Array.from({ length: 50 }, (_, i) => join(session.code, `Voter ${i + 1}`)),
    );
    await currentStory(session.code, storyId);
    const values = participants.map((_, i) => (i < 30 ? '5' : i < 45 ? '8' : '13'));
    const answers = await Promise.all(participants.map((id, i) => vote(session.code, id, values[i]!)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.at(-1)!.body.stats).toMatchObject({ total_participants: 50 });

    const revealed = await storiesApi.post(`/stories/${storyId}/reveal`, as(owner));
    expect(revealed.status).toBe(200);
    expect(revealed.body.story.votes).toHaveLength(50);
    expect(
      new Set(revealed.body.story.votes.map((v: { participant: { name: string } }) => v.participant.name))
        .size,
    ).toBe(50);
    expect(revealed.body.story.final_estimate).toBe('5');
    const late = await vote(session.code, participants[0]!, '8');
    expect(late.status).toBe(409);
  });

  it('votes racing the reveal are either in the revealed votes or refused with 409, never lost', async () => {
    const owner = randomUUID();
    const session = await createSession(owner);
    const storyId = await addStory(session.code, owner, 'Race');
    const names = Array.from({ length: 30 }, (_, i) => `Racer ${i + 1}`);
    const ids = await Promise.all(names.map((n) => join(session.code, n)));
    await currentStory(session.code, storyId);
    // votes spread over ~600 ms, the reveal early among them
    const votes = ids.map((id, i) =>
      new Promise((r) => setTimeout(r, i * 20)).then(() => vote(session.code, id, '3')),
    );
    const reveal = new Promise((r) => setTimeout(r, 100)).then(() =>
      storiesApi.post(`/stories/${storyId}/reveal`, as(owner)),
    );
    const [answers, revealed] = await Promise.all([Promise.all(votes), reveal]);
    expect(revealed.status).toBe(200);
    const accepted = names.filter((_, i) => answers[i]!.status === 200).sort();
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.every((a) => a.status === 409)).toBe(true);
    const inReveal = revealed.body.story.votes
      .map((v: { participant: { name: string } }) => v.participant.name)
      .sort();
    expect(accepted.length).toBeGreaterThan(0);
    expect(inReveal).toEqual(accepted);
  });

  it('a restart of the stories service in the middle of voting and revealing loses no event', async () => {
    const owner = randomUUID();
    const session = await createSession(owner, { auto_reveal: true });
    const [a, b, c] = [
      await addStory(session.code, owner, 'A'),
      await addStory(session.code, owner, 'B'),
      await addStory(session.code, owner, 'C'),
    ];
    const voters = [
      await join(session.code, 'Ann'),
      await join(session.code, 'Bob'),
      await join(session.code, 'Cy'),
    ];
    await currentStory(session.code, a);

    await stories.stop(); // votes arrive while stories is down: its durable consumer gets them later
    for (const [i, id] of voters.entries())
      expect((await vote(session.code, id, ['3', '5', '5'][i]!)).status).toBe(200);
    stories = await startService(storiesDef, logger);

    await currentStory(session.code, b); // auto_reveal after the restart, and sessions advanced
    const storyA = await storiesApi.get(`/stories/${a}`, as(owner));
    expect(storyA.body.story).toMatchObject({ status: 'revealed', final_estimate: '5' });
    expect(storyA.body.story.votes).toHaveLength(3);

    // a reveal whose event may still be in the outbox when the service stops
    const revealB = await storiesApi.post(`/stories/${b}/reveal`, as(owner));
    expect(revealB.status).toBe(200);
    await stories.stop();
    stories = await startService(storiesDef, logger);
    await currentStory(session.code, c);
    expect((await vote(session.code, voters[0]!, '8')).status).toBe(200);
  });
});
