import { signIdentity } from '@pp/http';
import { startService, type StartedService } from '@pp/runtime';
import { api, createTestDatabase, testNatsUrl, uniqueName, type TestDatabase } from '@pp/testing';
import * as ai from './ai/src/app.ts';
import * as integrations from './integrations/src/app.ts';
import { readConfig } from './ai/src/config.ts';

const KEY = 'test-internal-signing-key-0123456789abcdef';

/** Units whose features come later still start, report health and answer their paths with a 503 envelope. */
describe.each([
  ['ai', ai.definition, '/sessions/ABCDEF/ai/summary'],
  ['integrations', integrations.definition, '/integrations/providers'],
])('%s unit', (name, definition, path) => {
  let db: TestDatabase;
  let service: StartedService;
  beforeAll(async () => {
    db = await createTestDatabase(name);
    const config = readConfig({
      DATABASE_URL: db.url,
      NATS_URL: testNatsUrl(),
      INTERNAL_SIGNING_KEY: KEY,
      PORT: '0',
      LOG_LEVEL: 'silent',
      EVENTS_PREFIX: uniqueName('t').toLowerCase(),
    });
    service = await startService({ ...definition(config), host: '127.0.0.1' });
  });
  afterAll(async () => {
    await service.stop();
    await db.drop();
  });

  it('answers /healthz and /readyz', async () => {
    const client = api(service.server.url);
    expect((await client.get('/healthz')).status).toBe(200);
    const ready = await client.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ database: 'ok', nats: 'ok' });
  });

  it('answers its paths with 503 and the error envelope', async () => {
    const res = await api(service.server.url).post(path, {
      body: {},
      headers: { 'x-pp-identity': signIdentity(KEY, { sub: 'u1', kind: 'user' }) },
    });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      success: false,
      message: expect.stringContaining(name),
      error: { code: 'not_available' },
    });
  });
});
