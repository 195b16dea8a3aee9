import { startFake } from '../fakes/fake-server.ts';
import { githubOAuth, githubOAuthEnv } from '../fakes/github-oauth.fake.ts';
import { GITHUB_TOKEN, startGithubFake } from '../fakes/github.fake.ts';
import { as, startIntegrations, type IntegrationsHarness } from './integrations-harness.ts';

/** The unit with GitHub's OAuth app on: a GitHub fake, its token endpoint, and a public https address. */
export async function startWithGithubOAuth() {
  const github = await startGithubFake();
  const oauth = githubOAuth(github);
  const provider = await startFake(oauth.route);
  const h = await startIntegrations({
    ...githubOAuthEnv(provider.url),
    PUBLIC_BASE_URL: 'https://poker.example',
  });
  const stop = async () => {
    await h.stop();
    await provider.stop();
    await github.stop();
  };
  return { h, github, oauth, provider, stop };
}

/** A token connection of `owner` to the fake's repository (201 checked), with these settings on top. */
export async function connectGithub(
  h: IntegrationsHarness,
  owner: string,
  apiUrl: string,
  settings: Record<string, unknown> = {},
) {
  const res = await h.client.post('/integrations/connections', {
    body: {
      provider: 'github',
      name: 'Planning repo',
      credentials: { token: GITHUB_TOKEN },
      settings: { api_url: apiUrl, owner: 'octo', repository: 'planning', ...settings },
    },
    ...as(owner),
  });
  if (res.status !== 201) throw new Error(`connection answered ${res.status}: ${res.text}`);
  return res.body.connection;
}
