/**
 * One server of the gateway benchmark, in a process of its own: `node bench-servers.ts <kind>`.
 *   service  the stand-in unit (the real service stack: ids, metrics, identity check, envelope)
 *   gateway  the real gateway in front of it (rate limit raised; BENCH_TOKEN pre-cached as valid)
 * (The bare proxy it is measured against is @pp/bench's.)
 * Prints `{"port": n}` on stdout once it listens.
 */
import { createHash } from 'node:crypto';
import { createServiceApp, listen, send } from '@pp/http';
import { createLogger } from '@pp/logger';
import { apiDocuments, createApp } from '../src/app.ts';
import { TokenCache } from '../src/auth/token-cache.ts';
import { readConfig } from '../src/config.ts';

const kind = process.argv[2];
const target = process.env.TARGET_URL ?? '';
const key = process.env.INTERNAL_SIGNING_KEY ?? 'bench-internal-signing-key-0123456789abcdef';
const logger = createLogger({ name: `bench-${kind}`, level: 'silent' });

function service() {
  return createServiceApp({
    logger,
    unit: 'sessions',
    identityKey: key,
    readiness: {},
    routes: (app) => {
      app.get('/sessions/:code', (req, res) => {
        send(res, 200, {
          session: {
            id: 'a3b0c1d2-0000-4000-8000-000000000000',
            code: req.params.code,
            name: 'Bench',
            status: 'active',
            participants_count: 3,
            current_story: null,
          },
        });
      });
      app.get('/sessions', (req, res) => send(res, 200, { sessions: [], caller: req.identity?.sub ?? null }));
    },
  });
}

function gateway() {
  const url = Object.fromEntries(
    ['SESSIONS', 'STORIES', 'AI', 'INTEGRATIONS', 'WEBHOOKS'].map((u) => [`${u}_URL`, target]),
  );
  const config = readConfig({
    ...url,
    IDENTITY_URL: 'http://127.0.0.1:9',
    INTERNAL_SIGNING_KEY: key,
    RATE_LIMIT_PER_MINUTE: '100000000',
    TOKEN_CACHE_TTL_SECONDS: '300',
  });
  const tokenCache = new TokenCache({ positiveTtlMs: 300_000, negativeTtlMs: 5_000 });
  const token = process.env.BENCH_TOKEN;
  if (token) {
    const hash = createHash('sha256').update(token).digest('base64url');
    tokenCache.setValid(
      hash,
      { sub: 'bench-user', kind: 'user', name: 'Bench', token_kind: 'api', token_id: 'bench' },
      'bench',
      null,
    );
  }
  // Asked of the units for as long as this process serves.
  return createApp({ config, logger, tokenCache, documents: apiDocuments(config, logger) });
}

const app = kind === 'service' ? service() : kind === 'gateway' ? gateway() : undefined;
if (!app) throw new Error(`unknown server kind ${kind}`);
const running = await listen(app, 0, '127.0.0.1');
process.stdout.write(`${JSON.stringify({ port: running.port })}\n`);
// The benchmark asks for CPU time over IPC: CPU per request holds up on a busy machine where req/s does not.
process.on('message', (m) => {
  if (m === 'cpu') process.send?.(process.cpuUsage());
});
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
