import { createLogger } from '@pp/logger';
import { createOutboundClient, type OutboundPolicy } from '@pp/outbound';
import type { ProviderConnection } from '../../src/clients/providers/adapter.ts';
import { createAdapters } from '../../src/clients/providers/index.ts';
import { createProviderKit } from '../../src/clients/providers/provider-http.ts';
import { issueView } from '../../src/use-cases/shared/issue-view.ts';
import type { ExternalIssue } from '../../src/domain/issues.ts';
import type { Fake, SeenRequest } from '../fakes/fake-server.ts';
import { ODD_ANSWERS } from '../fakes/odd-answers.ts';

const logger = createLogger({ name: 'adapters-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/**
 * Every adapter on the guarded client (loopback allowed, as for local fakes, unless `policy` says
 * otherwise), with the hosted APIs at `urls`.
 */
export function adapters(
  urls: Partial<Record<'linear' | 'trello' | 'notion' | 'jiraCloud', string>> = {},
  policy: OutboundPolicy = { allowPrivate: true },
) {
  const outbound = createOutboundClient({ ...policy, timeoutMs: 5_000 });
  const kit = createProviderKit({ outbound, logger, maxRetryWaitMs: 2_000 });
  return createAdapters(kit, {
    LINEAR_API_URL: urls.linear ?? 'http://127.0.0.1:9',
    TRELLO_API_URL: urls.trello ?? 'http://127.0.0.1:9',
    NOTION_API_URL: urls.notion ?? 'http://127.0.0.1:9',
    JIRA_CLOUD_API_URL: urls.jiraCloud ?? 'http://127.0.0.1:9',
    TRELLO_BACKOFF_MS: 50,
  });
}

let connections = 0;
/** A connection with these settings and credentials (a fresh breaker each). */
export const connection = (
  settings: Record<string, unknown>,
  credentials: Record<string, string>,
  authMethod: ProviderConnection['authMethod'] = 'token',
): ProviderConnection => ({
  id: `00000000-0000-4000-8000-${String(++connections).padStart(12, '0')}`,
  authMethod,
  settings,
  credentials: async () => credentials,
});

/** The code of the AppError a promise fails with. */
export const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no failure',
    (err: { code?: string; status?: number }) => `${err.status} ${err.code}`,
  );

export const views = (issues: ExternalIssue[]) => issues.map(issueView);

/** A call of an adapter, and the request of it that the fake answers oddly. */
export type OddCall = [name: string, match: (r: SeenRequest) => boolean, run: () => Promise<unknown>];

/**
 * Each call, with each of the odd answers (JSON of another shape, text) given to the request it
 * matches: what it failed with, when that was not 503 provider_unavailable (none is expected).
 */
export async function oddAnswerOutcomes(fake: Pick<Fake, 'failNext'>, calls: OddCall[]) {
  const unexpected: string[] = [];
  for (const [answer, response] of ODD_ANSWERS)
    for (const [name, match, run] of calls) {
      fake.failNext(match, response);
      const outcome = await run().then(
        () => 'no failure',
        (err: { code?: string; status?: number; message?: string }) =>
          err.status ? `${err.status} ${err.code}` : `crash: ${err.message}`,
      );
      if (outcome !== '503 provider_unavailable') unexpected.push(`${name}, ${answer}: ${outcome}`);
    }
  return unexpected;
}
