/**
 * The platform (identity, sessions, stories, gateway) with the ai unit beside it, on the same event
 * bus, reached through the gateway like any client reaches it; helpers to build a realistic session.
 */
import { createLogger } from '@pp/logger';
import { startService, type StartedService } from '@pp/runtime';
import { createTestDatabase, freePort, testNatsUrl, until, type TestDatabase } from '@pp/testing';
import { KEY, startPlatform, type Platform } from '../../../../e2e/support/platform.ts';
import { definition } from '../../src/app.ts';
import { readConfig } from '../../src/config.ts';

export { until };

const logger = createLogger({ name: 'ai-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export interface StoryInput {
  title: string;
  description?: string;
  acceptance_criteria?: string;
}

export async function startAiPlatform(env: Record<string, string> = {}) {
  const port = await freePort();
  const platform: Platform = await startPlatform({ gatewayEnv: { AI_URL: `http://127.0.0.1:${port}` } });
  const db: TestDatabase = await createTestDatabase('pf_ai');
  const ai: StartedService = await startService(
    {
      ...definition(
        readConfig({
          NATS_URL: testNatsUrl(),
          INTERNAL_SIGNING_KEY: KEY,
          EVENTS_PREFIX: platform.prefix,
          PORT: String(port),
          DATABASE_URL: db.url,
          SESSIONS_URL: platform.unitUrls.sessions,
          STORIES_URL: platform.unitUrls.stories,
          LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
          ...env,
        }),
      ),
      host: '127.0.0.1',
    },
    logger,
  );
  const { client } = platform;

  const ok = async (res: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const r = await res;
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`);
    return r.body;
  };

  return {
    platform,
    client,
    ai,
    db,
    signUp: platform.signUp,
    async session(token: string, body: Record<string, unknown> = {}) {
      const created = await ok(client.post('/sessions', { token, body: { name: 'Sprint 7', ...body } }), 201);
      return created.session as { id: string; code: string };
    },
    async addStory(token: string, code: string, story: StoryInput): Promise<string> {
      return (await ok(client.post(`/sessions/${code}/stories`, { token, body: story }), 201)).story.id;
    },
    async join(code: string, name: string): Promise<number> {
      return (await ok(client.post(`/sessions/${code}/join`, { body: { name } }))).participant.id;
    },
    /** The voters vote these cards on the current story, then the owner reveals it; its final estimate. */
    async voteAndReveal(token: string, code: string, storyId: string, voters: number[], cards: string[]) {
      for (const [i, card] of cards.entries())
        await ok(client.post(`/sessions/${code}/vote`, { body: { participant_id: voters[i], vote: card } }));
      return (await ok(client.post(`/stories/${storyId}/reveal`, { token }))).story.final_estimate as
        string | null;
    },
    ask: (token: string | undefined, code: string, name: string, body?: unknown) =>
      client.raw.post(`/sessions/${code}/ai/${name}`, { token, body }),
    async stop() {
      await ai.stop();
      await platform.stop();
      await db.drop();
    },
  };
}

export type AiPlatform = Awaited<ReturnType<typeof startAiPlatform>>;
