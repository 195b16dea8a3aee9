import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, until } from '@pp/testing';
import { isAlive, readPidFile } from '../src/launcher/stale.ts';
import { units } from '../src/launcher/units.ts';
import { launch, type Launched } from './support/launched.ts';

const CARDS = ['1', '2', '3', '5', '8'];
const PARTICIPANTS = 150;
const env = { LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '100000' };

interface Vote {
  name: string;
  value: string;
  /** The HTTP status, or undefined when no answer came (the gateway had stopped accepting). */
  status?: number;
}

/** A vote whose body is still being sent: a request in flight for as long as the test likes. */
function slowVote(url: string, participantId: number, value: string) {
  const body = JSON.stringify({ participant_id: participantId, vote: value });
  const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
  const answered = new Promise<number | Error>((resolve) => {
    req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode!)));
    req.on('error', resolve);
  });
  req.write(body.slice(0, 5));
  return { answered, finish: () => req.end(body.slice(5)) };
}

/**
 * Ctrl-C on `npm start` while votes are in flight: the gateway drains first (a request in flight
 * completes), then the services, and NATS and PostgreSQL stop last. No vote answered 200 is lost,
 * PostgreSQL logs no FATAL line, and nothing is left running.
 */
describe('Ctrl-C on the launcher', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-ctrl-c-'));
  const launches: Launched[] = [];
  afterAll(async () => {
    await Promise.all(launches.map((l) => l.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops the gateway, then the services, then NATS and PostgreSQL: what is in flight completes, every vote answered 200 is kept, no FATAL', async () => {
    const first = await launch(dataDir, env);
    launches.push(first);
    const client = api(first.url);
    const owner = await client.post('/auth/register', {
      body: { email: 'ctrl-c@example.test', password: 'a-long-password', name: 'Cat' },
    });
    const token = owner.body.token as string;
    const code = (await client.post('/sessions', { body: { name: 'Ctrl-C' }, token })).body.session.code;
    const story = (await client.post(`/sessions/${code}/stories`, { body: { title: 'S' }, token })).body
      .story;
    await until(
      async () => (await client.get(`/sessions/${code}`)).body.session.current_story?.id === story.id,
    );
    const people: Array<{ id: number; name: string }> = [];
    for (let i = 0; i < PARTICIPANTS + 1; i++)
      people.push(
        (await client.post(`/sessions/${code}/join`, { body: { name: `P${i}` } })).body.participant,
      );
    const [slowVoter, ...voters] = people;
    const pids = [
      ...readFileSync(join(dataDir, 'units.pid'), 'utf8').split('\n').map(Number),
      readPidFile(join(dataDir, 'postgres', 'postmaster.pid'))!,
      readPidFile(join(dataDir, 'nats', 'nats-server.pid'))!,
    ];
    expect(pids.filter(isAlive)).toHaveLength(units.length + 2);

    // Votes from 8 clients at once; Ctrl-C once 30 are answered, while others are in flight.
    const slow = slowVote(`${first.url}/sessions/${code}/vote`, slowVoter!.id, '8');
    const votes: Vote[] = [];
    let interrupted = false;
    const client8 = async () => {
      for (let voter = voters.shift(); voter; voter = voters.shift()) {
        const vote: Vote = { name: voter.name, value: CARDS[voter.id % CARDS.length]! };
        votes.push(vote);
        try {
          const res = await client.post(`/sessions/${code}/vote`, {
            body: { participant_id: voter.id, vote: vote.value },
          });
          vote.status = res.status;
        } catch {
          return; // refused: the gateway stopped accepting
        }
        if (!interrupted && votes.filter((v) => v.status === 200).length >= 30) {
          interrupted = true;
          first.interrupt();
          setTimeout(slow.finish, 500);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, client8));
    expect(interrupted).toBe(true);
    expect(await slow.answered).toBe(200);
    // Each vote was answered 200 or refused at the door; none reached a service that had already stopped.
    expect(votes.filter((v) => v.status !== undefined && v.status !== 200)).toEqual([]);
    expect(await first.exited).toBe(0);
    expect(pids.filter(isAlive)).toEqual([]);

    // PostgreSQL heard of the stop only after every unit had stopped (LOG_LEVEL=info: each logs "stopped").
    const unitStops = first.output.flatMap((l, i) => (/^\[\w+\s*\] \{.*"msg":"stopped"/.test(l) ? [i] : []));
    const postgresStop = first.output.findIndex((l) => l.includes('received fast shutdown request'));
    expect(unitStops).toHaveLength(units.length);
    expect(postgresStop).toBeGreaterThan(Math.max(...unitStops));

    // Started again on the same data: the reveal shows every vote that was answered 200.
    const second = await launch(dataDir, env);
    launches.push(second);
    const revealed = await api(second.url).post(`/stories/${story.id}/reveal`, { token });
    expect(revealed.status).toBe(200);
    const stored = new Map<string, string>(
      revealed.body.story.votes.map((v: { participant: { name: string }; value: string }) => [
        v.participant.name,
        v.value,
      ]),
    );
    const answered = [{ name: slowVoter!.name, value: '8', status: 200 }, ...votes].filter(
      (v) => v.status === 200,
    );
    expect(answered.length).toBeGreaterThanOrEqual(31);
    expect(answered.filter((v) => stored.get(v.name) !== v.value)).toEqual([]);
    await second.stop();
    expect(await second.exited).toBe(0);

    // An autovacuum worker running when PostgreSQL is told to stop is ended with a FATAL line of its
    // own: that is PostgreSQL's fast shutdown at work, not a failure.
    const benign = /terminating autovacuum process due to administrator command/;
    expect([...first.output, ...second.output].filter((l) => /FATAL/i.test(l) && !benign.test(l))).toEqual(
      [],
    );
  }, 120_000);
});
