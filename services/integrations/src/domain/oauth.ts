import type { ImportProviderId } from './providers.ts';

/** A provider's OAuth app, as configuration sets it up. */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  scope?: string;
  /** Proof key (S256) where the provider takes one (GitHub, Linear, Entra ID; not Atlassian or Notion). */
  pkce: boolean;
  /** How the token request is sent: a form (most) or JSON (Atlassian, Notion). */
  body: 'form' | 'json';
  /** Client credentials in the body, or as HTTP Basic (Notion). */
  clientAuth: 'body' | 'basic';
  /** Further parameters of the authorize URL. */
  extra?: Record<string, string>;
}

export type OAuthApps = Partial<Record<ImportProviderId, OAuthApp>>;

export interface OAuthSettings {
  GITHUB_OAUTH_URL: string;
  LINEAR_API_URL: string;
  LINEAR_OAUTH_URL: string;
  JIRA_OAUTH_URL: string;
  AZURE_DEVOPS_OAUTH_URL: string;
  NOTION_API_URL: string;
  [name: string]: unknown;
}

const trim = (url: string) => url.replace(/\/+$/, '');

/** The providers whose OAuth app is configured (`INTEGRATION_<PROVIDER>_CLIENT_ID` and `_SECRET`). */
export function oauthApps(env: OAuthSettings): OAuthApps {
  const templates: Record<
    Exclude<ImportProviderId, 'trello'>,
    Omit<OAuthApp, 'clientId' | 'clientSecret'>
  > = {
    github: {
      authorizeUrl: `${trim(env.GITHUB_OAUTH_URL)}/login/oauth/authorize`,
      tokenUrl: `${trim(env.GITHUB_OAUTH_URL)}/login/oauth/access_token`,
      scope: 'repo',
      pkce: true,
      body: 'form',
      clientAuth: 'body',
    },
    linear: {
      authorizeUrl: `${trim(env.LINEAR_OAUTH_URL)}/oauth/authorize`,
      tokenUrl: `${trim(env.LINEAR_API_URL)}/oauth/token`,
      scope: 'read,write',
      pkce: true,
      body: 'form',
      clientAuth: 'body',
    },
    jira: {
      authorizeUrl: `${trim(env.JIRA_OAUTH_URL)}/authorize`,
      tokenUrl: `${trim(env.JIRA_OAUTH_URL)}/oauth/token`,
      scope: 'read:jira-work write:jira-work read:jira-user offline_access',
      pkce: false,
      body: 'json',
      clientAuth: 'body',
      extra: { audience: 'api.atlassian.com', prompt: 'consent' },
    },
    azure_devops: {
      authorizeUrl: `${trim(env.AZURE_DEVOPS_OAUTH_URL)}/oauth2/v2.0/authorize`,
      tokenUrl: `${trim(env.AZURE_DEVOPS_OAUTH_URL)}/oauth2/v2.0/token`,
      scope: '499b84ac-1321-427f-aa17-267ca6975798/vso.work_write offline_access',
      pkce: true,
      body: 'form',
      clientAuth: 'body',
    },
    notion: {
      authorizeUrl: `${trim(env.NOTION_API_URL)}/oauth/authorize`,
      tokenUrl: `${trim(env.NOTION_API_URL)}/oauth/token`,
      pkce: false,
      body: 'json',
      clientAuth: 'basic',
      extra: { owner: 'user' },
    },
  };
  const apps: OAuthApps = {};
  for (const [provider, template] of Object.entries(templates)) {
    const name = provider.toUpperCase();
    const clientId = env[`INTEGRATION_${name}_CLIENT_ID`];
    const clientSecret = env[`INTEGRATION_${name}_CLIENT_SECRET`];
    if (typeof clientId === 'string' && typeof clientSecret === 'string')
      apps[provider as ImportProviderId] = { ...template, clientId, clientSecret };
  }
  return apps;
}
