/**
 * Imports through the gateway in front of the real units (identity, sessions, stories, integrations,
 * in this process): a CSV of 1,000 rows previewed and imported into a fresh session (target: each under
 * 1 s), and the preview of 500 GitHub issues over five pages of 100 from a local GitHub fake (target:
 * under 2 s). Each measured 5 times after a warm-up; the median is held to the target.
 * Run alone with `node e2e/bench/integrations.bench.ts`; exits 0 when every target is met.
 */
import { GITHUB_TOKEN, startGithubFake } from '../../services/integrations/test/fakes/github.fake.ts';
import { startPlatform } from '../support/platform.ts';

const RUNS = 5;
const log = (line: string) => process.stdout.write(`${line}\n`);

/** A CSV of n rows shaped like a real backlog export: quoted text with commas, labels. */
function csvOf(n: number) {
  const rows = ['external_id,title,description,acceptance_criteria,labels'];
  for (let i = 1; i <= n; i++)
    rows.push(
      `BL-${i},"Story ${i}: checkout, step ${i % 7}","As a shopper I pay for order ${i}, quickly","Given a cart\nThen it is paid",shop;web`,
    );
  return rows.join('\n');
}

async function timed<T>(run: () => Promise<T>) {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const p = await startPlatform({ integrationsEnv: {} });
const github = await startGithubFake({ issues: 500 });
const results: Array<{ name: string; ms: number[]; target: number }> = [];
try {
  const token = await p.signUp('Bench');
  const csv = csvOf(1_000);
  const preview = () =>
    p.client.post('/integrations/import-preview', { body: { provider: 'csv', csv }, token });
  const issues = (await preview()).body.issues;
  if (issues?.length !== 1_000) throw new Error('the CSV preview did not answer 1,000 issues');

  const previews: number[] = [];
  for (let i = 0; i < RUNS; i++) previews.push((await timed(preview)).ms);
  results.push({ name: 'CSV preview, 1,000 rows', ms: previews, target: 1_000 });

  const imports: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const code = (await p.client.post('/sessions', { body: { name: `Bench ${i}` }, token })).body.session
      .code;
    const { ms, value } = await timed(() =>
      p.client.post(`/sessions/${code}/integrations/import-confirm`, {
        body: { provider: 'csv', issues },
        token,
      }),
    );
    if (value.status !== 201 || value.body.stories.length !== 1_000)
      throw new Error(`import answered ${value.status}: ${value.text.slice(0, 300)}`);
    if (i > 0) imports.push(ms); // the first one warms up
  }
  results.push({ name: 'CSV import, 1,000 rows', ms: imports, target: 1_000 });

  const connection = await p.client.post('/integrations/connections', {
    body: {
      provider: 'github',
      credentials: { token: GITHUB_TOKEN },
      settings: { api_url: github.apiUrl, owner: 'octo', repository: 'planning' },
    },
    token,
  });
  const ghPreview = () =>
    p.client.post('/integrations/import-preview', {
      body: { connection_id: connection.body.connection.id, params: { limit: 500 } },
      token,
    });
  const first = await ghPreview();
  if (first.body.issues?.length !== 500) throw new Error('the GitHub preview did not answer 500 issues');
  github.seen.splice(0);
  const ghRuns: number[] = [];
  for (let i = 0; i < RUNS; i++) ghRuns.push((await timed(ghPreview)).ms);
  const pages = github.seen.length / RUNS;
  results.push({ name: `GitHub preview, 500 issues (${pages} pages of 100)`, ms: ghRuns, target: 2_000 });
} finally {
  await github.stop();
  await p.stop();
}

let met = true;
log('integrations, through the gateway:');
for (const r of results) {
  const m = median(r.ms);
  const ok = m < r.target;
  met &&= ok;
  log(
    `  ${r.name}: median ${m.toFixed(0)} ms, min ${Math.min(...r.ms).toFixed(0)}, max ${Math.max(...r.ms).toFixed(0)} ` +
      `(target < ${r.target} ms: ${ok ? 'met' : 'MISSED'})`,
  );
}
process.exitCode = met ? 0 : 1;
