import { startGithubFake } from './fakes/github.fake.ts';
import { connectGithub } from './support/github.ts';
import { as, startIntegrations, type IntegrationsHarness } from './support/integrations-harness.ts';

describe('a connection pointed at another repository after an import', () => {
  let h: IntegrationsHarness;
  let first: Awaited<ReturnType<typeof startGithubFake>>;
  let second: Awaited<ReturnType<typeof startGithubFake>>;
  beforeAll(async () => {
    h = await startIntegrations();
    [first, second] = [await startGithubFake({ issues: 2 }), await startGithubFake({ issues: 2 })];
  });
  afterAll(async () => {
    await first.stop();
    await second.stop();
    await h.stop();
  });

  it('fails the sync of the stories imported before, writing nothing to the issue of the same number there', async () => {
    const s = await h.session();
    const connection = await connectGithub(h, s.owner, first.apiUrl);
    const imported = await h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
      body: { connection_id: connection.id, issues: ['2'] },
      ...as(s.owner),
    });
    expect(imported.status).toBe(201);
    await h.reveal(s, imported.body.stories[0].id, '5');
    // another GitHub (Enterprise Server) holding a repository of the same name, with an issue 2 of its own
    const moved = await h.client.patch(`/integrations/connections/${connection.id}`, {
      body: { settings: { api_url: second.apiUrl } },
      ...as(s.owner),
    });
    expect(moved.status).toBe(200);

    const sync = await h.client.post(`/sessions/${s.code}/integrations/sync-estimates`, {
      body: {},
      ...as(s.owner),
    });
    expect(sync.status).toBe(200);
    expect(sync.body.sync).toMatchObject({ synced: 0, failed: 1, skipped: 0 });
    expect(sync.body.sync.results[0]).toMatchObject({
      external_id: '2',
      status: 'failed',
      message: expect.stringMatching(/another tracker or project/),
    });
    expect([first.comments, second.comments]).toEqual([[], []]);
  });
});
