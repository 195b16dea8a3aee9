/**
 * The machine's yardstick: a minimal express service that does one INSERT and one JetStream publish
 * per request, with nothing else (no auth, no validation, no outbox). Started by the benchmark.
 * Given a next service's URL, it also calls that service (same request) between its INSERT and its
 * publish: the least a change that two units make together can cost.
 * Usage: node baseline-service.ts <port> <databaseUrl> <natsUrl> [nextUrl]; prints `{"port": n}` once
 * it listens.
 */
import http from 'node:http';
import express from 'express';
import pg from 'pg';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';

const [port = '0', databaseUrl = '', natsUrl = '', nextUrl] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
await pool.query(
  'create table if not exists bench_votes (id bigserial primary key, participant int, value text, at timestamptz default now())',
);
const nc = await connect({ servers: natsUrl });
const jsm = await jetstreamManager(nc);
/** The stream and subject of this run (BENCH_NAME, as the benchmark that started it names them). */
const name = (process.env.BENCH_NAME ?? 'bench').toLowerCase().replace(/[^a-z0-9]/g, '');
const stream = name === 'bench' ? 'BENCH_BASELINE' : `BENCH_BASELINE_${name.toUpperCase()}`;
const subject = `${name}.baseline.vote`;
await jsm.streams
  .add({ name: stream, subjects: [`${name}.baseline.>`], max_msgs: 100_000 })
  .catch(() => undefined);
const js = jetstream(nc);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** The same vote, sent on to the next service; resolves once it answered 200. */
function callNext(payload: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${nextUrl}/vote`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const app = express();
app.use(express.json());
app.post('/vote', async (req, res) => {
  try {
    await vote(req.body, res);
  } catch (err) {
    // A failed request fails the yardstick's round: the benchmark's output says why.
    process.stderr.write(`baseline service: ${(err as Error).message}\n`);
    res.status(503).json({ success: false });
  }
});
async function vote(body: { participant_id: number; vote: string }, res: express.Response) {
  const { rows } = await pool.query(
    'insert into bench_votes (participant, value) values ($1, $2) returning id',
    [body.participant_id, body.vote],
  );
  if (nextUrl) await callNext(JSON.stringify(body));
  await js.publish(subject, JSON.stringify({ id: rows[0].id }));
  res.json({ success: true, vote: { id: rows[0].id } });
}
const server = app.listen(Number(port), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
// Its callers (the bare proxy, the first service) keep their connections: kept open between the
// benchmark's rounds, minutes apart, a connection is never closed just as a request is sent on it
// (node closes an idle one after 5 s by default), which would fail that request.
server.keepAliveTimeout = 10 * 60_000;
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void Promise.allSettled([nc.close(), pool.end()]).then(() => process.exit(0));
});
