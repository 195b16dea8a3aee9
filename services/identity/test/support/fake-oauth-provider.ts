import { createHash, randomBytes } from 'node:crypto';
import express from 'express';
import { listen, type RunningServer } from '@pp/http';

export interface FakeProfile {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  profile: FakeProfile;
}

/**
 * A local OAuth 2.0 provider speaking the real protocol (authorization code + PKCE S256), with both
 * an OIDC userinfo endpoint (Google style) and GitHub's /user + /user/emails.
 */
export async function startFakeOAuthProvider(options: { clientId: string; clientSecret: string }) {
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, FakeProfile>();
  const exchanges: Array<{ ok: boolean; reason?: string }> = [];
  let current: FakeProfile = {
    sub: '1001',
    email: 'octo@example.com',
    emailVerified: true,
    name: 'Octo Cat',
  };

  const app = express();
  app.get('/authorize', (req, res) => {
    const q = req.query as Record<string, string>;
    if (
      q.client_id !== options.clientId ||
      q.response_type !== 'code' ||
      q.code_challenge_method !== 'S256' ||
      !q.code_challenge
    ) {
      res.status(400).send('bad authorization request');
      return;
    }
    const code = randomBytes(12).toString('hex');
    codes.set(code, {
      clientId: q.client_id,
      redirectUri: q.redirect_uri!,
      challenge: q.code_challenge,
      profile: current,
    });
    const target = new URL(q.redirect_uri!);
    target.searchParams.set('code', code);
    target.searchParams.set('state', q.state ?? '');
    res.redirect(302, target.toString());
  });
  app.post('/token', express.urlencoded({ extended: false }), (req, res) => {
    const b = req.body as Record<string, string>;
    const pending = b.code ? codes.get(b.code) : undefined;
    const refuse = (reason: string) => {
      exchanges.push({ ok: false, reason });
      res.status(400).json({ error: 'invalid_grant', error_description: reason });
    };
    if (b.grant_type !== 'authorization_code' || !pending) return refuse('unknown code');
    codes.delete(b.code!);
    if (b.client_id !== options.clientId || b.client_secret !== options.clientSecret)
      return refuse('bad client');
    if (b.redirect_uri !== pending.redirectUri) return refuse('redirect_uri mismatch');
    const challenge = createHash('sha256')
      .update(b.code_verifier ?? '')
      .digest('base64url');
    if (challenge !== pending.challenge) return refuse('PKCE verifier does not match the challenge');
    const accessToken = randomBytes(16).toString('hex');
    accessTokens.set(accessToken, pending.profile);
    exchanges.push({ ok: true });
    res.json({ access_token: accessToken, token_type: 'bearer', scope: 'openid email' });
  });
  const who = (req: express.Request) =>
    accessTokens.get((req.get('authorization') ?? '').replace(/^Bearer /i, ''));
  app.get('/userinfo', (req, res) => {
    const p = who(req);
    if (!p) return void res.status(401).json({ error: 'invalid_token' });
    res.json({ sub: p.sub, email: p.email, email_verified: p.emailVerified, name: p.name });
  });
  app.get('/user', (req, res) => {
    const p = who(req);
    if (!p) return void res.status(401).json({ message: 'Bad credentials' });
    res.json({
      id: Number(p.sub),
      login: p.name.toLowerCase().replace(/\s/g, ''),
      name: p.name,
      email: null,
    });
  });
  app.get('/user/emails', (req, res) => {
    const p = who(req);
    if (!p) return void res.status(401).json({ message: 'Bad credentials' });
    res.json([{ email: p.email, primary: true, verified: p.emailVerified }]);
  });

  const server: RunningServer = await listen(app, 0, '127.0.0.1');
  return {
    url: server.url,
    exchanges,
    signInAs(profile: FakeProfile) {
      current = profile;
    },
    /** Environment for the identity service: GitHub and Google both pointed at this fake. */
    env(): Record<string, string> {
      const u = server.url;
      return {
        OAUTH_GITHUB_CLIENT_ID: options.clientId,
        OAUTH_GITHUB_CLIENT_SECRET: options.clientSecret,
        OAUTH_GITHUB_AUTHORIZE_URL: `${u}/authorize`,
        OAUTH_GITHUB_TOKEN_URL: `${u}/token`,
        OAUTH_GITHUB_USERINFO_URL: `${u}/user`,
        OAUTH_GITHUB_EMAILS_URL: `${u}/user/emails`,
        OAUTH_GOOGLE_CLIENT_ID: options.clientId,
        OAUTH_GOOGLE_CLIENT_SECRET: options.clientSecret,
        OAUTH_GOOGLE_AUTHORIZE_URL: `${u}/authorize`,
        OAUTH_GOOGLE_TOKEN_URL: `${u}/token`,
        OAUTH_GOOGLE_USERINFO_URL: `${u}/userinfo`,
      };
    },
    close: () => server.close(),
  };
}
export type FakeOAuthProvider = Awaited<ReturnType<typeof startFakeOAuthProvider>>;
