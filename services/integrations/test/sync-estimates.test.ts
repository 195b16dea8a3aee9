import { as, startIntegrations, type IntegrationsHarness } from './support/integrations-harness.ts';

describe('a sync of the stories named', () => {
  let h: IntegrationsHarness;
  beforeAll(async () => {
    h = await startIntegrations();
  });
  afterAll(() => h.stop());

  it('reports each story once, however often the request names it', async () => {
    const s = await h.session();
    const imported = await h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
      body: { provider: 'csv', issues: [{ external_id: 'one', title: 'From a CSV' }] },
      ...as(s.owner),
    });
    const story = imported.body.stories[0].id as string;
    const unknown = '00000000-0000-4000-8000-000000000000';
    const sync = await h.client.post(`/sessions/${s.code}/integrations/sync-estimates`, {
      body: { story_ids: [story, story.toUpperCase(), unknown, unknown, unknown.toUpperCase()] },
      ...as(s.owner),
    });
    expect(sync.status).toBe(200);
    expect(sync.body.sync).toMatchObject({ synced: 0, failed: 0, skipped: 2 });
    expect(sync.body.sync.results.map((r: { story_id: string }) => r.story_id)).toEqual([story, unknown]);
    const logs = await h.client.get(`/integrations/sync-logs?session_code=${s.code}`, as(s.owner));
    expect(logs.body.meta.total).toBe(2);
  });
});
