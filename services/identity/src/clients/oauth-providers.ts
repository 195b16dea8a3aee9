import type { Config } from '../config.ts';

/** How a provider describes its user: GitHub's REST profile, or a standard OIDC userinfo document. */
export type ProfileStyle = 'github' | 'oidc';

export interface OAuthProvider {
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  /** GitHub: the verified addresses live behind a second endpoint. */
  emailsUrl?: string;
  scopes: string;
  profileStyle: ProfileStyle;
}

/** The providers whose client id and secret are configured, with the real endpoints unless overridden. */
export function configuredProviders(config: Config): OAuthProvider[] {
  const providers: OAuthProvider[] = [];
  if (config.OAUTH_GITHUB_CLIENT_ID && config.OAUTH_GITHUB_CLIENT_SECRET) {
    providers.push({
      id: 'github',
      name: 'GitHub',
      clientId: config.OAUTH_GITHUB_CLIENT_ID,
      clientSecret: config.OAUTH_GITHUB_CLIENT_SECRET,
      authorizeUrl: config.OAUTH_GITHUB_AUTHORIZE_URL ?? 'https://github.com/login/oauth/authorize',
      tokenUrl: config.OAUTH_GITHUB_TOKEN_URL ?? 'https://github.com/login/oauth/access_token',
      userinfoUrl: config.OAUTH_GITHUB_USERINFO_URL ?? 'https://api.github.com/user',
      emailsUrl: config.OAUTH_GITHUB_EMAILS_URL ?? 'https://api.github.com/user/emails',
      scopes: config.OAUTH_GITHUB_SCOPES ?? 'read:user user:email',
      profileStyle: 'github',
    });
  }
  if (config.OAUTH_GOOGLE_CLIENT_ID && config.OAUTH_GOOGLE_CLIENT_SECRET) {
    providers.push({
      id: 'google',
      name: 'Google',
      clientId: config.OAUTH_GOOGLE_CLIENT_ID,
      clientSecret: config.OAUTH_GOOGLE_CLIENT_SECRET,
      authorizeUrl: config.OAUTH_GOOGLE_AUTHORIZE_URL ?? 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: config.OAUTH_GOOGLE_TOKEN_URL ?? 'https://oauth2.googleapis.com/token',
      userinfoUrl: config.OAUTH_GOOGLE_USERINFO_URL ?? 'https://openidconnect.googleapis.com/v1/userinfo',
      scopes: config.OAUTH_GOOGLE_SCOPES ?? 'openid email profile',
      profileStyle: 'oidc',
    });
  }
  return providers;
}
