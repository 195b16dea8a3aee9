import { as, startIntegrations, type IntegrationsHarness } from './support/integrations-harness.ts';

describe('notification connections', () => {
  let h: IntegrationsHarness;
  beforeAll(async () => {
    h = await startIntegrations();
  });
  afterAll(() => h.stop());

  const create = (provider: string, fields: Record<string, unknown>) =>
    h.client.post('/integrations/connections', { body: { provider, ...fields }, ...as('notifier') });

  it("checks a Slack webhook's URL as every other address: a scheme other than http(s), link-local and metadata addresses are refused", async () => {
    for (const webhook_url of [
      'file:///etc/passwd',
      'http://169.254.169.254/latest',
      'http://[fd00:ec2::254]/',
    ]) {
      const res = await create('slack', { credentials: { webhook_url } });
      expect([webhook_url, res.status, Object.keys(res.body.errors ?? {})]).toEqual([
        webhook_url,
        422,
        ['credentials.webhook_url'],
      ]);
    }
    const custom = await create('webhook', { settings: { url: 'http://169.254.169.254/' } });
    expect([custom.status, Object.keys(custom.body.errors ?? {})]).toEqual([422, ['settings.url']]);
    // loopback addresses are allowed here (OUTBOUND_ALLOW_PRIVATE), as for the trackers' fakes
    const slack = await create('slack', {
      credentials: { webhook_url: 'http://127.0.0.1:9/services/T/B/x' },
    });
    expect(slack.status).toBe(201);
    expect(slack.body.connection.credentials).toEqual({ stored: ['webhook_url'] });
    const replaced = await h.client.patch(`/integrations/connections/${slack.body.connection.id}`, {
      body: { credentials: { webhook_url: 'http://169.254.169.254/latest' } },
      ...as('notifier'),
    });
    expect([replaced.status, Object.keys(replaced.body.errors ?? {})]).toEqual([
      422,
      ['credentials.webhook_url'],
    ]);
  });
});
