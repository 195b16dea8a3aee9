/**
 * A long history, on the whole system as `npm start` runs it (every unit its own process, rate limit
 * raised): a session of 500 revealed stories with 20 votes each (named votes, so each read asks the
 * sessions unit for the current record_vote_names; seeded as seedHistory says) and an owner with
 * 1,000 sessions (seeded through the gateway). Then, through the gateway: the session's analytics (target: p99 under 100 ms) and the first
 * page of the owner's list of sessions (target: p99 under 50 ms), each by one client after another
 * (an owner at the dashboard) and by 4 at once. The analytics are timed cold too: the first read right
 * after a reveal (a story of the session reset, voted on and revealed again, unmeasured, before each
 * read), as a live room asks for them; the same target. Each measurement runs BENCH_ROUNDS times
 * (default 3): its figures are the median of its rounds, and a failure in any round fails its target.
 * Run alone with `node deploy/bench/history.bench.ts`; exits 0 when every target is met.
 */
import { gunzipSync } from 'node:zlib';
import { HEADER, closedLoop, formatRow, inRounds, medianOfRounds, type LatencyResult } from '@pp/bench';
import { runStatement } from '@pp/db';
import { benchSystem, cpuMeter, fetchRaw, json } from './whole-system.ts';

const STORIES = 500;
const VOTERS = 20;
const SESSIONS = 1_000;
const ANALYTICS_P99_MS = 100;
const LIST_P99_MS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Fibonacci cards around a story's "true" size, so that there are ties, agreement and outliers. */
const CARDS = ['1', '2', '3', '5', '8', '13', '20'];

async function register(gateway: string, name: string) {
  const { token } = await json('POST', `${gateway}/auth/register`, {
    email: `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
    password: 'bench-password',
    name,
  });
  return token as string;
}

/** Runs `work` for 0..count-1, `concurrency` at a time. */
async function pool(count: number, concurrency: number, work: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** The card each voter gives story `n`: mostly its size, some one or two cards off, so there are outliers. */
function cardOf(n: number, voter: number) {
  const size = 1 + (n % (CARDS.length - 2));
  const spread = voter % 7 === 0 ? 2 : voter % 3 === 0 ? 1 : 0;
  return CARDS[Math.max(0, Math.min(CARDS.length - 1, size + (voter % 2 === 0 ? spread : -spread)))]!;
}

/**
 * A session of STORIES revealed stories with VOTERS named votes each. The session, its voters and the
 * first story (votes and reveal) go through the API; the other stories are written into the stories
 * unit's database as a reveal stores them, since through the API each change of a long session rereads
 * its whole queue (about half a second a story at 500, so the seeding alone would take minutes).
 */
async function seedHistory(gateway: string, token: string, storiesDb: string) {
  const { session } = await json(
    'POST',
    `${gateway}/sessions`,
    { name: 'A long history', record_vote_names: true },
    token,
  );
  const code = session.code as string;
  const voters: Array<{ id: number; name: string }> = [];
  for (let i = 0; i < VOTERS; i++)
    voters.push((await json('POST', `${gateway}/sessions/${code}/join`, { name: `Voter ${i}` })).participant);
  const { story } = await json('POST', `${gateway}/sessions/${code}/stories`, { title: 'Story 0' }, token);
  await Promise.all(
    voters.map((p, v) =>
      json('POST', `${gateway}/sessions/${code}/vote`, { participant_id: p.id, vote: cardOf(0, v) }),
    ),
  );
  const { story: revealed } = await json('POST', `${gateway}/stories/${story.id}/reveal`, undefined, token);
  const rows = Array.from({ length: STORIES - 1 }, (_, i) => {
    const n = i + 1;
    const votes = voters.map((p, v) => ({ participant: { id: p.id, name: p.name }, value: cardOf(n, v) }));
    return { n, final_estimate: CARDS[1 + (n % (CARDS.length - 2))], votes };
  });
  await runStatement(
    storiesDb,
    `insert into stories (id, session_id, title, description, acceptance_criteria, status, position, final_estimate,
                          votes, revealed_at, voting_started_at, created_at, updated_at)
     select gen_random_uuid(), $1::uuid, 'Story ' || r.n, '', '', 'revealed', r.n + 1, r.final_estimate, r.votes,
            $2::timestamptz + r.n * interval '1 second', $2::timestamptz, $2::timestamptz, $2::timestamptz
       from jsonb_to_recordset($3::jsonb) as r(n int, final_estimate text, votes jsonb)`,
    [session.id, revealed.revealed_at, JSON.stringify(rows)],
  );
  return { code, story: story.id as string, voter: voters[0]!.id };
}

/** SESSIONS sessions of one owner. */
async function seedSessions(gateway: string, token: string) {
  await pool(SESSIONS, 16, (i) => json('POST', `${gateway}/sessions`, { name: `Session ${i}` }, token));
}

/** GETs of one URL by `connections` clients, each sending its next as soon as the previous answered. */
async function measure(name: string, url: string, token: string, connections: number, seconds: number) {
  return closedLoop(name, connections, seconds, async (_worker, time) => {
    const res = await time(() => fetchRaw(url, token));
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  });
}

export interface HistoryBenchResult {
  analytics: LatencyResult[];
  list: LatencyResult[];
  meetsAnalytics: boolean;
  meetsList: boolean;
}

export async function run(
  options: { durationSeconds?: number; log?: (line: string) => void } = {},
): Promise<HistoryBenchResult> {
  const duration = options.durationSeconds ?? 5;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const system = benchSystem();
  try {
    const gateway = await system.start();
    const historian = await register(gateway, 'Historian');
    const busy = await register(gateway, 'Busy owner');
    let started = Date.now();
    const seeded = await seedHistory(gateway, historian, system.databaseOf('stories'));
    const { code } = seeded;
    log(`seeded: ${STORIES} revealed stories x ${VOTERS} votes in ${(Date.now() - started) / 1000} s`);
    started = Date.now();
    await seedSessions(gateway, busy);
    log(`seeded through the API: ${SESSIONS} sessions of one owner in ${(Date.now() - started) / 1000} s`);

    const analyticsUrl = `${gateway}/sessions/${code}/analytics`;
    const check = await json('GET', analyticsUrl, undefined, historian);
    if (check.analytics.totals.revealed !== STORIES) throw new Error('the analytics miss revealed stories');
    // The load takes the analytics gzipped and does not unpack them: check once that they unpack to the same.
    const packed = await fetchRaw(analyticsUrl, historian);
    if (packed.encoding !== 'gzip' || gunzipSync(packed.body).toString() !== JSON.stringify(check))
      throw new Error('the gzipped analytics differ from the plain ones');
    const listUrl = `${gateway}/sessions`;
    const page = await json('GET', listUrl, undefined, busy);
    if (page.meta.total !== SESSIONS) throw new Error(`the owner's list counts ${page.meta.total} sessions`);

    const { metered, report } = cpuMeter(() => system.processes());
    const rounds = (fn: () => Promise<LatencyResult>) =>
      inRounds(ROUNDS, () => metered(fn)).then(medianOfRounds);
    await measure('warm-up', analyticsUrl, historian, 4, 1);
    // Cold: a reveal changes the session's stories, so the read after it builds the analytics again.
    const story = `${gateway}/stories/${seeded.story}`;
    const afterReveal = () =>
      closedLoop('analytics right after a reveal', 1, duration, async (_worker, time) => {
        await json('POST', `${story}/reset`, undefined, historian);
        await json('POST', `${gateway}/sessions/${code}/vote`, { participant_id: seeded.voter, vote: '5' });
        await json('POST', `${story}/reveal`, undefined, historian);
        const res = await time(() => fetchRaw(analyticsUrl, historian));
        if (res.status !== 200) throw new Error(`${analyticsUrl}: ${res.status}`);
      });
    const analytics = [
      await rounds(afterReveal),
      await rounds(() => measure('analytics, 1 client', analyticsUrl, historian, 1, duration)),
      await rounds(() => measure('analytics, 4 clients', analyticsUrl, historian, 4, duration)),
    ];
    await measure('warm-up', listUrl, busy, 4, 1);
    const list = [
      await rounds(() => measure("owner's list, 1 client", listUrl, busy, 1, duration)),
      await rounds(() => measure("owner's list, 4 clients", listUrl, busy, 4, duration)),
    ];
    const result: HistoryBenchResult = {
      analytics,
      list,
      meetsAnalytics: analytics.every((r) => r.p99 < ANALYTICS_P99_MS && r.failed === 0),
      meetsList: list.every((r) => r.p99 < LIST_P99_MS && r.failed === 0),
    };
    log('');
    log(
      `a long history: ${STORIES} revealed stories x ${VOTERS} votes (${JSON.stringify(check).length} bytes of analytics); ${SESSIONS} sessions of one owner (first page of ${page.meta.per_page}); ${duration} s a round, the median of ${ROUNDS} round(s)`,
    );
    log(HEADER);
    for (const r of [...analytics, ...list]) log(formatRow({ ...r, non2xx: r.failed, errors: 0 }));
    log(
      `analytics (right after a reveal and warm): p99 under ${ANALYTICS_P99_MS} ms, none failed: ${result.meetsAnalytics ? 'yes' : 'NO'}; ` +
        `owner's list: p99 under ${LIST_P99_MS} ms, none failed: ${result.meetsList ? 'yes' : 'NO'}`,
    );
    report(log, 'CPU per request, by process (from /proc):');
    return result;
  } finally {
    await system.stop();
  }
}

if (import.meta.main) {
  const result = await run({ durationSeconds: Number(process.env.BENCH_SECONDS ?? 5) });
  process.exitCode = result.meetsAnalytics && result.meetsList ? 0 : 1;
}
