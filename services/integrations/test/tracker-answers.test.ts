import { startFake, type Fake, type FakeResponse, type SeenRequest } from './fakes/fake-server.ts';
import { ODD_ANSWERS } from './fakes/odd-answers.ts';
import { as, startIntegrations, type IntegrationsHarness } from './support/integrations-harness.ts';
import { callbackPath, startConnection } from './support/oauth-flow.ts';

const DATA_SOURCE = '11111111-2222-4333-8444-555555555555';
const PAGE = 'aaaaaaaa-bbbb-4ccc-8ddd-000000000007';

/**
 * A connection of each tracker, every one of them at the same fake (a self-hosted address, or the
 * hosted API configured there), with the id of an issue of it. Those whose write-back reads the
 * tracker first (GitHub's labels, Jira's fields, Linear's estimation scale, Notion's properties) are
 * set up to do so; Jira and Notion also once set up to write at once (a points field set, a comment).
 */
const trackers = (url: string) => [
  {
    provider: 'github',
    credentials: { token: 't' },
    settings: {
      api_url: `${url}/api/v3`,
      owner: 'o',
      repository: 'r',
      label_sync: true,
      comment_sync: false,
    },
    issue: '7',
  },
  {
    provider: 'jira',
    credentials: { email: 'ann@example.com', api_token: 't' },
    settings: { site_url: url, jql: 'project = PP' },
    issue: 'PP-7',
  },
  {
    provider: 'jira',
    name: 'jira (points field set)',
    credentials: { email: 'ann@example.com', api_token: 't' },
    settings: { site_url: url, jql: 'project = PP', story_points_field: 'customfield_10016' },
    issue: 'PP-7',
  },
  {
    provider: 'azure_devops',
    credentials: { token: 't' },
    settings: { organization_url: `${url}/org`, project: 'Web' },
    issue: '7',
  },
  { provider: 'linear', credentials: { token: 't' }, settings: {}, issue: 'ENG-7' },
  {
    provider: 'trello',
    credentials: { key: 'k', token: 't' },
    settings: { board_id: 'b'.repeat(24) },
    issue: 'c'.repeat(24),
  },
  {
    provider: 'notion',
    credentials: { token: 't' },
    settings: { data_source_id: DATA_SOURCE, title_property: 'Name', estimate_property: 'Points' },
    issue: PAGE,
  },
  {
    provider: 'notion',
    name: 'notion (comments)',
    credentials: { token: 't' },
    settings: { data_source_id: DATA_SOURCE, title_property: 'Name' },
    issue: PAGE,
  },
];

describe('a tracker that answers 200 with something else than its API documents', () => {
  let h: IntegrationsHarness;
  let fake: Fake;
  let answer: FakeResponse = ODD_ANSWERS[0]![1];
  beforeAll(async () => {
    // Atlassian's token endpoint answers as it should, so that the OAuth callback reaches the list of sites
    fake = await startFake((req: SeenRequest) =>
      req.method === 'POST' && req.path === '/oauth/token'
        ? { json: { access_token: 'atlassian-token', expires_in: 3600 } }
        : answer,
    );
    h = await startIntegrations({
      LINEAR_API_URL: fake.url,
      TRELLO_API_URL: `${fake.url}/1`,
      NOTION_API_URL: `${fake.url}/v1`,
      JIRA_OAUTH_URL: fake.url,
      JIRA_CLOUD_API_URL: fake.url,
      INTEGRATION_JIRA_CLIENT_ID: 'jira-client',
      INTEGRATION_JIRA_CLIENT_SECRET: 'jira-secret',
    });
  });
  afterAll(async () => {
    await h.stop();
    await fake.stop();
  });

  it('answers 503 provider_unavailable to a test, a preview and an import, and fails the sync with it, for every tracker', async () => {
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const tracker of trackers(fake.url)) {
      const label = tracker.name ?? tracker.provider;
      const s = await h.session();
      const created = await h.client.post('/integrations/connections', {
        body: { provider: tracker.provider, credentials: tracker.credentials, settings: tracker.settings },
        ...as(s.owner),
      });
      expect([label, created.status]).toEqual([label, 201]);
      const connection = created.body.connection.id as string;
      // a story imported from the preview item as sent (no call to the tracker), then revealed
      const imported = await h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
        body: { connection_id: connection, issues: [{ external_id: tracker.issue, title: 'Imported' }] },
        ...as(s.owner),
      });
      expect(imported.status).toBe(201);
      await h.reveal(s, imported.body.stories[0].id, '5');

      for (const [name, response] of ODD_ANSWERS) {
        answer = response;
        const calls = {
          test: h.client.post(`/integrations/connections/${connection}/test`, as(s.owner)),
          preview: h.client.post('/integrations/import-preview', {
            body: { connection_id: connection },
            ...as(s.owner),
          }),
          'import by id': h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
            body: { connection_id: connection, issues: [tracker.issue] },
            ...as(s.owner),
          }),
        };
        for (const [call, pending] of Object.entries(calls)) {
          const res = await pending;
          outcomes.push(`${label} ${call}, ${name}: ${res.status} ${res.body.error?.code}`);
          expected.push(`${label} ${call}, ${name}: 503 provider_unavailable`);
        }
        const sync = await h.client.post(`/sessions/${s.code}/integrations/sync-estimates`, {
          body: {},
          ...as(s.owner),
        });
        const result = sync.body.sync?.results?.[0];
        outcomes.push(
          `${label} sync, ${name}: ${sync.status} ${result?.status} ${result?.message?.split(':')[0]}`,
        );
        // an odd answer is no write-back done: read before it (a scale, a field) or as its confirmation
        expected.push(`${label} sync, ${name}: 200 failed provider_unavailable`);
      }
    }
    expect(outcomes).toEqual(expected);
  });

  it("answers 503 provider_unavailable at the OAuth callback when Atlassian's list of sites is not one", async () => {
    const outcomes: string[] = [];
    for (const [name, response] of ODD_ANSWERS) {
      answer = response;
      const flow = await startConnection(h.url, 'jira', as('jira-oauth-user').headers);
      const done = await h.client.get(callbackPath('jira', flow.state), { headers: flow.browser });
      outcomes.push(`${name}: ${done.status} ${done.body.error?.code}`);
    }
    expect(outcomes).toEqual(ODD_ANSWERS.map(([name]) => `${name}: 503 provider_unavailable`));
    expect((await h.client.get('/integrations/connections', as('jira-oauth-user'))).body.connections).toEqual(
      [],
    );
  });
});
