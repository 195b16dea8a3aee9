/**
 * Imports and syncs through the gateway in front of the real units: a CSV previewed and imported; a
 * GitHub-style connection (its api_url at a local GitHub fake) from preview to import to reveal to sync,
 * the estimate arriving at the fake as a comment; secrets in no answer; another user's connection
 * refused; a tracker address at a metadata address refused.
 */
import { GITHUB_TOKEN, startGithubFake } from '../services/integrations/test/fakes/github.fake.ts';
import { startPlatform, type Platform } from './support/platform.ts';

describe('integrations through the gateway', () => {
  let p: Platform;
  let github: Awaited<ReturnType<typeof startGithubFake>>;
  let token: string;
  beforeAll(async () => {
    p = await startPlatform({ integrationsEnv: {} });
    github = await startGithubFake({ issues: 4, pullEvery: 4 });
    token = await p.signUp('Importer');
  });
  afterAll(async () => {
    await github.stop();
    await p.stop();
  });

  const newSession = async () =>
    (await p.client.post('/sessions', { body: { name: 'Imports' }, token })).body.session.code as string;

  it('previews a CSV and imports it into a session, in order', async () => {
    const code = await newSession();
    const csv =
      'title,description,labels\n"Checkout, fast",Pay in one click,shop;ux\nRefunds,"Line one\nLine two",\n';
    const preview = await p.client.post('/integrations/import-preview', {
      body: { provider: 'csv', csv },
      token,
    });
    expect(preview.status).toBe(200);
    expect(preview.body.issues.map((i: { title: string }) => i.title)).toEqual(['Checkout, fast', 'Refunds']);
    const imported = await p.client.post(`/sessions/${code}/integrations/import-confirm`, {
      body: { provider: 'csv', issues: preview.body.issues },
      token,
    });
    expect(imported.status).toBe(201);
    expect(imported.body.data.stories).toHaveLength(2);
    const room = await p.client.get(`/sessions/${code}/stories`);
    expect(room.body.stories.map((s: { title: string; status: string }) => [s.title, s.status])).toEqual([
      ['Checkout, fast', 'voting'],
      ['Refunds', 'pending'],
    ]);
  });

  it('takes a GitHub connection from preview to import to reveal to sync: the estimate arrives as a comment', async () => {
    const code = await newSession();
    const created = await p.client.post('/integrations/connections', {
      body: {
        provider: 'github',
        credentials: { token: GITHUB_TOKEN },
        settings: { api_url: github.apiUrl, owner: 'octo', repository: 'planning' },
      },
      token,
    });
    expect(created.status).toBe(201);
    const id = created.body.connection.id;
    const tested = await p.client.post(`/integrations/connections/${id}/test`, { token });
    expect(tested.body.account).toBe('octocat');
    const preview = await p.client.post('/integrations/import-preview', {
      body: { connection_id: id },
      token,
    });
    expect(preview.body.issues.map((i: { external_id: string }) => i.external_id)).toEqual(['1', '2', '3']);
    const imported = await p.client.post(`/sessions/${code}/integrations/import-confirm`, {
      body: { connection_id: id, issues: preview.body.issues.slice(0, 2) },
      token,
    });
    const story = imported.body.stories[0];
    const voter = (await p.client.post(`/sessions/${code}/join`, { body: { name: 'Dev' } })).body.participant;
    await p.client.post(`/sessions/${code}/vote`, {
      body: { participant_id: voter.id, vote: '5' },
      headers: { 'x-participant-token': voter.token },
    });
    expect((await p.client.post(`/stories/${story.id}/reveal`, { token })).status).toBe(200);
    const sync = await p.client.post(`/sessions/${code}/integrations/sync-estimates`, { body: {}, token });
    expect(sync.status).toBe(200);
    expect(sync.body.sync).toMatchObject({ synced: 1, failed: 0, skipped: 1 });
    expect(github.comments).toEqual([{ issue: 1, body: 'Estimated in planning poker: **5**' }]);
    const logs = await p.client.get('/integrations/sync-logs', { token });
    expect(logs.body.sync_logs.map((l: { status: string }) => l.status).sort()).toEqual([
      'skipped',
      'synced',
    ]);
    for (const res of [
      created,
      tested,
      preview,
      imported,
      sync,
      logs,
      await p.client.get('/integrations/connections', { token }),
    ])
      expect(res.text).not.toContain(GITHUB_TOKEN);

    const other = await p.signUp('Someone else');
    expect((await p.client.post(`/integrations/connections/${id}/test`, { token: other })).status).toBe(403);
    expect(
      (await p.client.post('/integrations/import-preview', { body: { connection_id: id }, token: other }))
        .status,
    ).toBe(403);
    expect(
      (await p.client.post(`/sessions/${code}/integrations/sync-estimates`, { body: {}, token: other }))
        .status,
    ).toBe(403);
  });

  it('keeps at most 100 connections per account, also against a burst: the next is 409 too_many_connections until one is deleted', async () => {
    const collector = await p.signUp('Collector');
    const connect = (repository: string) =>
      p.client.post('/integrations/connections', {
        body: {
          provider: 'github',
          credentials: { token: GITHUB_TOKEN },
          settings: { api_url: github.apiUrl, owner: 'octo', repository },
        },
        token: collector,
      });
    const made: string[] = [];
    for (let batch = 0; batch < 8; batch++) {
      const res = await Promise.all(Array.from({ length: 10 }, (_, i) => connect(`repo-${batch * 10 + i}`)));
      expect(res.map((r) => r.status)).toEqual(Array(10).fill(201));
      made.push(...res.map((r) => r.body.connection.id as string));
    }
    // A burst of 40 at once from 80: the limit holds for it too.
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => connect(`burst-${i}`)));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(20);
    const refused = burst.filter((r) => r.status === 409);
    expect(refused).toHaveLength(20);
    expect(refused[0]!.body.error.code).toBe('too_many_connections');
    expect(
      (await p.client.get('/integrations/connections', { token: collector })).body.connections,
    ).toHaveLength(100);
    expect((await p.client.delete(`/integrations/connections/${made[0]}`, { token: collector })).status).toBe(
      200,
    );
    expect((await connect('in its place')).status).toBe(201);
    expect((await connect('x')).status).toBe(409);
    // Another account is not held back.
    expect(
      (
        await p.client.post('/integrations/connections', {
          body: {
            provider: 'github',
            credentials: { token: GITHUB_TOKEN },
            settings: { api_url: github.apiUrl, owner: 'octo', repository: 'other' },
          },
          token,
        })
      ).status,
    ).toBe(201);
  });

  it('refuses a tracker address at the cloud metadata address, and answers 401 without a token', async () => {
    const res = await p.client.post('/integrations/connections', {
      body: {
        provider: 'jira',
        credentials: { email: 'a@example.com', api_token: 't' },
        settings: { site_url: 'http://169.254.169.254/latest/meta-data', jql: 'project = X' },
      },
      token,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors['settings.site_url']).toEqual([expect.stringContaining('169.254.169.254')]);
    expect((await p.client.get('/integrations/providers')).status).toBe(401);
    const providers = await p.client.get('/integrations/providers', { token });
    expect(providers.body.providers.map((x: { id: string }) => x.id)).toEqual([
      'csv',
      'github',
      'linear',
      'jira',
      'azure_devops',
      'trello',
      'notion',
      'slack',
      'webhook',
    ]);
  });
});
