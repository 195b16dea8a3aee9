/**
 * The assistant's time limit on a model, as configured by default, against the gateway's on the
 * request: a model too slow for the client to wait on gets the built-in answer to the client.
 */
import { readConfig as readGatewayConfig } from '../../../gateway/src/config.ts';
import { startAiPlatform, type AiPlatform } from './support/ai-platform.ts';
import { startFakeModel, type FakeModel } from './support/fake-model.ts';

describe('the assistant with a model slower than the gateway waits, on the default settings', () => {
  let fake: FakeModel;
  let h: AiPlatform;
  beforeAll(async () => {
    fake = await startFakeModel();
    // No AI_TIMEOUT_MS: the default, under the gateway's default time limit (which the platform keeps).
    h = await startAiPlatform({
      AI_PROVIDER_URL: fake.url,
      AI_MODEL: fake.model,
      OUTBOUND_ALLOW_PRIVATE: 'true',
    });
  }, 60_000);
  afterAll(async () => {
    await h.stop();
    await fake.stop();
  });

  it('answers with the built-in engine before the gateway gives up on the request', async () => {
    const gatewayLimit = readGatewayConfig({ INTERNAL_SIGNING_KEY: 'k'.repeat(32) }).UPSTREAM_TIMEOUT_MS;
    fake.answer(() => ({ content: {}, delayMs: gatewayLimit + 1_000 }));
    const owner = await h.signUp('Patient');
    const { code } = await h.session(owner);
    await h.addStory(owner, code, { title: 'Export invoices to PDF' });
    const started = Date.now();
    const res = await h.ask(owner, code, 'analyze-current-story');
    expect([res.status, res.body.provider]).toEqual([200, 'builtin']);
    expect(res.body.note).toMatch(/did not give a usable answer in time/);
    expect(Date.now() - started).toBeLessThan(gatewayLimit);
  }, 40_000);
});
