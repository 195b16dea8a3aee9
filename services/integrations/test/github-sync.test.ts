import { GITHUB_TOKEN, startGithubFake } from './fakes/github.fake.ts';
import { connectGithub } from './support/github.ts';
import { as, startIntegrations, until, type IntegrationsHarness } from './support/integrations-harness.ts';

describe('a GitHub connection from preview to import to reveal to sync', () => {
  let h: IntegrationsHarness;
  let fake: Awaited<ReturnType<typeof startGithubFake>>;
  beforeAll(async () => {
    h = await startIntegrations();
    fake = await startGithubFake({ issues: 3 });
  });
  afterAll(async () => {
    await fake.stop();
    await h.stop();
  });

  const connect = (owner: string, settings: Record<string, unknown> = {}) =>
    connectGithub(h, owner, fake.apiUrl, settings);

  const previewOf = (owner: string, connectionId: string) =>
    h.client.post('/integrations/import-preview', { body: { connection_id: connectionId }, ...as(owner) });
  const importInto = (s: { code: string; owner: string }, connectionId: string, issues: unknown[]) =>
    h.client.post(`/sessions/${s.code}/integrations/import-confirm`, {
      body: { connection_id: connectionId, issues },
      ...as(s.owner),
    });

  it('writes the final estimate back as a comment, logs it, and reports each story', async () => {
    const s = await h.session();
    const connection = await connect(s.owner);
    const preview = await previewOf(s.owner, connection.id);
    expect(preview.status).toBe(200);
    expect(preview.body.issues.map((i: { external_id: string }) => i.external_id)).toEqual(['1', '2', '3']);
    const imported = await importInto(s, connection.id, [preview.body.issues[1], '3']);
    expect(imported.status).toBe(201);
    const [two, three] = imported.body.stories;
    await h.reveal(s, two.id, '8');
    const sync = await h.client.post(`/sessions/${s.code}/integrations/sync-estimates`, {
      body: {},
      ...as(s.owner),
    });
    expect(sync.status).toBe(200);
    expect(sync.body.sync).toMatchObject({ synced: 1, failed: 0, skipped: 1 });
    expect(sync.body.sync.results).toEqual([
      expect.objectContaining({
        story_id: two.id,
        external_id: '2',
        status: 'synced',
        estimate: '8',
        modes: ['comment'],
      }),
      expect.objectContaining({ story_id: three.id, status: 'skipped' }),
    ]);
    expect(fake.comments).toContainEqual({ issue: 2, body: 'Estimated in planning poker: **8**' });
    const logs = await h.client.get('/integrations/sync-logs?per_page=1', as(s.owner));
    expect(logs.body.meta).toEqual({ current_page: 1, per_page: 1, total: 2, last_page: 2 });
    expect(logs.body.sync_logs[0]).toMatchObject({ session_code: s.code, trigger: 'manual' });
    expect((await h.client.get('/integrations/sync-logs', as('stranger'))).body.sync_logs).toEqual([]);
  });

  it('previews issues as a story holds them, so every item previewed imports as shown', async () => {
    const tracker = await startGithubFake({ issues: 2 });
    try {
      const long = 'word '.repeat(30).trim(); // 149 characters
      tracker.issues[0]!.labels = [
        { name: long },
        ...Array.from({ length: 60 }, (_, i) => ({ name: `label ${i + 1}` })),
      ];
      const size = 'extra large '.repeat(4).trim(); // an estimate of 47 characters: no card
      tracker.issues[1]!.labels = [{ name: `estimate: ${size}` }];
      const s = await h.session();
      const connection = await connect(s.owner, { api_url: tracker.apiUrl });
      const preview = await previewOf(s.owner, connection.id);
      expect(preview.status).toBe(200);
      const [first, second] = preview.body.issues;
      expect(first.labels).toHaveLength(50);
      expect(first.labels.slice(0, 2)).toEqual([`${'word '.repeat(20).trim()}…`, 'label 1']);
      expect(second).toMatchObject({ labels: [`estimate: ${size}`], estimate: null });
      const imported = await importInto(s, connection.id, preview.body.issues);
      expect(imported.status).toBe(201);
      expect(imported.body.stories.map((story: { external_id: string }) => story.external_id)).toEqual([
        '1',
        '2',
      ]);
    } finally {
      await tracker.stop();
    }
  });

  it('previews a url longer than an item may carry as none, so the item imports', async () => {
    const tracker = await startGithubFake({ issues: 2 });
    try {
      const long = `https://github.example/octo/planning/issues/1?${'q'.repeat(2_001 - 46)}`;
      expect(long).toHaveLength(2_001);
      tracker.issues[0]!.html_url = long;
      const s = await h.session();
      const connection = await connect(s.owner, { api_url: tracker.apiUrl });
      const preview = await previewOf(s.owner, connection.id);
      expect(preview.status).toBe(200);
      expect(preview.body.issues.map((i: { url: string | null }) => i.url)).toEqual([
        null,
        tracker.issues[1]!.html_url,
      ]);
      const imported = await importInto(s, connection.id, preview.body.issues);
      expect(imported.status).toBe(201);
      expect(imported.body.stories).toHaveLength(2);
    } finally {
      await tracker.stop();
    }
  });

  it('syncs by itself on reveal when the connection has auto_sync', async () => {
    const s = await h.session();
    const connection = await connect(s.owner, { auto_sync: true, comment_sync: false, label_sync: true });
    const imported = await importInto(s, connection.id, ['3']);
    await h.reveal(s, imported.body.stories[0].id, '13');
    await until(async () => fake.issues[2]!.labels.some((l) => l.name === 'estimate: 13'));
    const logs = await until(async () => {
      const res = await h.client.get('/integrations/sync-logs', as(s.owner));
      return res.body.sync_logs.length > 0 ? res.body.sync_logs : undefined;
    });
    expect(logs[0]).toMatchObject({ trigger: 'auto', status: 'synced', estimate: '13', external_id: '3' });
  });

  it('never answers the credentials, refuses them to anyone else, and stores them encrypted', async () => {
    const owner = 'owner-of-secrets';
    const connection = await connect(owner);
    const answers = [
      JSON.stringify(connection),
      (await h.client.get('/integrations/connections', as(owner))).text,
      (await h.client.post(`/integrations/connections/${connection.id}/test`, as(owner))).text,
      (
        await h.client.patch(`/integrations/connections/${connection.id}`, {
          body: { name: 'Renamed' },
          ...as(owner),
        })
      ).text,
    ];
    for (const text of answers) expect(text).not.toContain(GITHUB_TOKEN);
    expect(connection.credentials).toEqual({ stored: ['token'] });
    const [row] = await h.sql('select credentials from connections where id = ?', [connection.id]);
    expect(String(row!.credentials)).toMatch(/^v1\./);
    expect(String(row!.credentials)).not.toContain(GITHUB_TOKEN);
    for (const call of [
      h.client.post(`/integrations/connections/${connection.id}/test`, as('intruder')),
      h.client.patch(`/integrations/connections/${connection.id}`, {
        body: { name: 'Mine' },
        ...as('intruder'),
      }),
      h.client.delete(`/integrations/connections/${connection.id}`, as('intruder')),
      h.client.post('/integrations/import-preview', {
        body: { connection_id: connection.id },
        ...as('intruder'),
      }),
    ])
      expect((await call).status).toBe(403);
    expect((await h.client.get('/integrations/connections', as('intruder'))).body.connections).toEqual([]);
  });

  it('refuses tracker addresses at link-local and metadata addresses, and unknown fields', async () => {
    for (const api_url of [
      'http://169.254.169.254/latest',
      'http://[fd00:ec2::254]/',
      'http://0.0.0.0:80/',
    ]) {
      const res = await h.client.post('/integrations/connections', {
        body: {
          provider: 'github',
          credentials: { token: 't' },
          settings: { api_url, owner: 'o', repository: 'r' },
        },
        ...as('someone'),
      });
      expect([api_url, res.status, Object.keys(res.body.errors ?? {})]).toEqual([
        api_url,
        422,
        ['settings.api_url'],
      ]);
    }
    const unknown = await h.client.post('/integrations/connections', {
      body: {
        provider: 'github',
        credentials: { token: 't', password: 'x' },
        settings: { owner: 'o', repository: 'r' },
      },
      ...as('someone'),
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toHaveProperty(['credentials']);
  });
});
