/**
 * A quick local measure of the vote path: the real service in process (fresh database, the local
 * NATS, the outbox relay publishing), votes sent with autocannon. Two shapes: one room where every
 * vote takes the round's lock in turn, and many rooms voting side by side.
 * Run with `node services/sessions/bench/votes.bench.ts` (PostgreSQL and NATS on 127.0.0.1).
 */
import autocannon from 'autocannon';
import { rooms } from '../test/support/room.ts';
import { startSessions } from '../test/support/sessions-harness.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const log = (line: string) => process.stdout.write(`${line}\n`);

async function measure(
  name: string,
  url: string,
  connections: number,
  targets: Array<{ code: string; ids: number[] }>,
) {
  let n = 0;
  const result = await autocannon({
    url,
    connections,
    duration: DURATION_S,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => {
          const room = targets[n++ % targets.length]!;
          const id = room.ids[Math.floor(n / targets.length) % room.ids.length]!;
          return {
            ...req,
            path: `/sessions/${room.code}/vote`,
            body: JSON.stringify({ participant_id: id, vote: '5' }),
          };
        },
      },
    ],
  });
  const bad = result.non2xx + result.errors;
  log(
    `${name}: ${Math.round(result.requests.average)} votes/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `${connections} connections, ${bad} not 2xx`,
  );
}

const h = await startSessions();
try {
  const r = rooms(h);
  const room = async (size: number) => {
    const session = await r.createSession('bench');
    const people = await Promise.all(Array.from({ length: size }, (_, i) => r.join(session.code, `P${i}`)));
    await r.openStory(session);
    return { code: session.code, ids: people.map((p) => p.id) };
  };
  await measure('one room of 50', h.url, 10, [await room(50)]);
  await measure('20 rooms of 10', h.url, 40, await Promise.all(Array.from({ length: 20 }, () => room(10))));
  const backlog = await h.runtime.relay.drain(30_000);
  log(`outbox drained after the runs (${backlog} published at the end)`);
} finally {
  await h.stop();
}
