import net from 'node:net';
import { startFake, type Fake, type SeenRequest } from './fakes/fake-server.ts';
import { as, startIntegrations, type IntegrationsHarness } from './support/integrations-harness.ts';
import { callbackPath, startConnection } from './support/oauth-flow.ts';

/** A port nothing listens on: a connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('an OAuth callback whose provider cannot be reached after the code exchange', () => {
  let h: IntegrationsHarness;
  let atlassian: Fake;
  const lines: string[] = [];
  beforeAll(async () => {
    // Atlassian's token endpoint answers; its list of sites (another host) cannot be reached
    atlassian = await startFake((req: SeenRequest) =>
      req.method === 'POST' && req.path === '/oauth/token'
        ? { json: { access_token: 'atlassian-access-token', expires_in: 3600 } }
        : { status: 404 },
    );
    h = await startIntegrations(
      {
        JIRA_OAUTH_URL: atlassian.url,
        JIRA_CLOUD_API_URL: `http://127.0.0.1:${await closedPort()}`,
        INTEGRATION_JIRA_CLIENT_ID: 'jira-client',
        INTEGRATION_JIRA_CLIENT_SECRET: 'jira-secret',
      },
      lines,
    );
  });
  afterAll(async () => {
    await h.stop();
    await atlassian.stop();
  });

  it('answers 503 provider_unavailable, stores nothing, and logs no token', async () => {
    const flow = await startConnection(h.url, 'jira', as('jira-user').headers);
    const done = await h.client.get(callbackPath('jira', flow.state), { headers: flow.browser });
    expect([done.status, done.body.error.code]).toEqual([503, 'provider_unavailable']);
    expect(done.text).not.toContain('atlassian-access-token');
    expect((await h.client.get('/integrations/connections', as('jira-user'))).body.connections).toEqual([]);
    expect(lines.join('\n')).not.toContain('atlassian-access-token');
  });
});
