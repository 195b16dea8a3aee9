/**
 * The assistant's built-in engine through the gateway, on the system as `npm start` runs it (each unit
 * its own process): an owner with a history of 2,000 revealed stories
 * (10 sessions of 200), and a session of 200 stories, 120 of them revealed with four voters each. Then
 * each of the eight endpoints in turn for BENCH_SECONDS under CONNECTIONS concurrent clients: p50/p99;
 * and cold, by one client, each call right after a reveal in the session (a vote and the reveal of its
 * current story before it, its reset after, all unmeasured), as a live room asks. Target: p99 under
 * 100 ms for each, warm and cold, none failed. Each measurement runs BENCH_ROUNDS times (default 3): its
 * figures are the median of its rounds, and a failure in any round fails the target. Databases and
 * event stream of its own, dropped at the end.
 * Run alone with `node deploy/bench/assistant.bench.ts`; exits 0 when every target is met.
 */
import pg from 'pg';
import { closedLoop, formatRow, HEADER, inRounds, medianOfRounds, type LatencyResult } from '@pp/bench';
import { storyText } from './story-texts.ts';
import { benchSystem, cpuMeter, json } from './whole-system.ts';

const HISTORY_SESSIONS = 10;
const STORIES = 200;
const REVEALED = 120;
const CONNECTIONS = Number(process.env.BENCH_AI_CONNECTIONS ?? 4);
const TARGET_P99_MS = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ENDPOINTS = [
  'summary',
  'analyze-current-story',
  'draft-stories',
  'improve-current-story',
  'generate-acceptance-criteria',
  'split-current-story',
  'estimate-assistant',
  'estimation-report',
];
const BRIEF =
  'A booking app for a yoga studio. Members book classes and cancel bookings, instructors publish their weekly ' +
  'schedule, and the studio owner sees attendance reports so that she can plan rooms. Guests can browse the ' +
  'timetable without an account.';

/** A session of `count` stories, the first `revealed` of them voted on by `voters` and revealed, in order. */
async function session(
  gateway: string,
  token: string,
  name: string,
  seed: number,
  count: number,
  revealed: number,
  voters: number,
) {
  const { session: s } = await json('POST', `${gateway}/sessions`, { name }, token);
  const ids: number[] = [];
  for (let v = 0; v < voters; v++)
    ids.push(
      (await json('POST', `${gateway}/sessions/${s.code}/join`, { name: `Voter ${v}` })).participant.id,
    );
  const cards = ['1', '2', '3', '5', '8', '13'];
  const stories: string[] = [];
  for (let i = 0; i < count; i++) {
    const { story } = await json(
      'POST',
      `${gateway}/sessions/${s.code}/stories`,
      storyText(seed * 1000 + i),
      token,
    );
    stories.push(story.id);
    if (i >= revealed) continue;
    for (const [v, participant] of ids.entries()) {
      const vote = cards[(i + (v === voters - 1 && i % 4 === 0 ? 3 : 0)) % cards.length]!;
      await json('POST', `${gateway}/sessions/${s.code}/vote`, { participant_id: participant, vote });
    }
    await json('POST', `${gateway}/stories/${story.id}/reveal`, undefined, token);
  }
  return { code: s.code as string, stories, voters: ids };
}

async function waitForHistory(url: string, ownerId: string, expected: number, log: (l: string) => void) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const { rows } = await client.query('select count(*)::int as n from past_stories where owner_id = $1', [
        ownerId,
      ]);
      if (rows[0].n >= expected) return log(`history kept by the ai unit: ${rows[0].n} revealed stories`);
      if (Date.now() > deadline)
        throw new Error(`the ai unit kept ${rows[0].n} of ${expected} revealed stories in time`);
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await client.end();
  }
}

export async function run(options: { durationSeconds?: number; log?: (line: string) => void } = {}) {
  const duration = options.durationSeconds ?? 5;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const system = benchSystem();
  try {
    const gateway = await system.start();
    const started = Date.now();
    const { token, user } = await json('POST', `${gateway}/auth/register`, {
      email: `bench-ai-${Date.now()}@example.test`,
      password: 'bench-password',
      name: 'Bench owner',
    });
    await Promise.all(
      Array.from({ length: HISTORY_SESSIONS }, (_, i) =>
        session(gateway, token, `History ${i}`, i + 1, STORIES, STORIES, 1),
      ),
    );
    const underTest = await session(gateway, token, 'Sprint under test', 99, STORIES, REVEALED, 4);
    const { code } = underTest;
    await waitForHistory(system.databaseOf('ai'), user.id, HISTORY_SESSIONS * STORIES, log);
    log(`seeded in ${Math.round((Date.now() - started) / 1000)} s`);

    const { metered, report } = cpuMeter(() => system.processes());
    const results: LatencyResult[] = [];
    // The session's current story: voted on and revealed before each cold call, reset after it.
    const current = underTest.stories[REVEALED]!;
    for (const name of ENDPOINTS) {
      const body = name === 'draft-stories' ? { text: BRIEF, count: 5 } : {};
      const call = () => json('POST', `${gateway}/sessions/${code}/ai/${name}`, body, token);
      for (let i = 0; i < 20; i++) await call(); // warm-up
      results.push(
        medianOfRounds(
          await inRounds(ROUNDS, () =>
            metered(() =>
              closedLoop(name, CONNECTIONS, duration, async (_worker, time) => void (await time(call))),
            ),
          ),
        ),
      );
      results.push(
        medianOfRounds(
          await inRounds(ROUNDS, () =>
            metered(() =>
              closedLoop(`${name}, right after a reveal`, 1, duration, async (_worker, time) => {
                for (const participant of underTest.voters)
                  await json('POST', `${gateway}/sessions/${code}/vote`, {
                    participant_id: participant,
                    vote: '5',
                  });
                await json('POST', `${gateway}/stories/${current}/reveal`, undefined, token);
                try {
                  await time(call);
                } finally {
                  await json('POST', `${gateway}/stories/${current}/reset`, undefined, token);
                }
              }),
            ),
          ),
        ),
      );
    }
    const met = results.every((r) => r.p99 < TARGET_P99_MS && r.failed === 0);
    log(
      `assistant (built-in engine) through the gateway: ${CONNECTIONS} connections (cold: 1), ${duration} s a round, ` +
        `the median of ${ROUNDS} round(s); ` +
        `a session of ${STORIES} stories (${REVEALED} revealed), an owner history of ${HISTORY_SESSIONS * STORIES} revealed stories`,
    );
    log(HEADER);
    for (const r of results) log(formatRow({ ...r, non2xx: r.failed, errors: 0 }));
    log(
      `assistant endpoints, warm and right after a reveal: p99 under ${TARGET_P99_MS} ms each, none failed: ${met ? 'yes' : 'NO'}`,
    );
    report(log, 'CPU per request, by process (from /proc):');
    return { results, met };
  } finally {
    await system.stop();
  }
}

if (import.meta.main) {
  const result = await run({ durationSeconds: Number(process.env.BENCH_SECONDS ?? 5) });
  process.exitCode = result.met ? 0 : 1;
}
