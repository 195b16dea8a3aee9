import { loadConfig, port, secret, serviceEnv, z } from '@pp/config';

const optionalUrl = z.url().optional();
const optionalText = z.string().min(1).optional();

export const configSchema = z.object({
  ...serviceEnv,
  PORT: port(8081),
  /** Signs the single-use OAuth `state` values. */
  TOKEN_SIGNING_KEY: secret,
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(24 * 3600),
  /** Public base URL of the API (the gateway): the OAuth redirect URI is built from it. */
  PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:8080'),
  /** Where a browser goes after social sign-on (the token in the URL fragment); unset: a JSON answer. */
  OAUTH_RETURN_URL: optionalUrl,
  OAUTH_STATE_TTL_SECONDS: z.coerce.number().int().min(30).default(600),
  /** How often the sign-on states that expired (abandoned at the provider) are swept. */
  OAUTH_STATE_SWEEP_MS: z.coerce
    .number()
    .int()
    .min(50)
    .default(5 * 60_000),
  /** How often the tokens that ended (expired or revoked) over 30 days ago are forgotten. */
  ENDED_TOKEN_SWEEP_MS: z.coerce
    .number()
    .int()
    .min(50)
    .default(60 * 60_000),
  OAUTH_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  // A provider is enabled when its client id and secret are set; its URLs default to the real ones.
  OAUTH_GITHUB_CLIENT_ID: optionalText,
  OAUTH_GITHUB_CLIENT_SECRET: optionalText,
  OAUTH_GITHUB_AUTHORIZE_URL: optionalUrl,
  OAUTH_GITHUB_TOKEN_URL: optionalUrl,
  OAUTH_GITHUB_USERINFO_URL: optionalUrl,
  OAUTH_GITHUB_EMAILS_URL: optionalUrl,
  OAUTH_GITHUB_SCOPES: optionalText,
  OAUTH_GOOGLE_CLIENT_ID: optionalText,
  OAUTH_GOOGLE_CLIENT_SECRET: optionalText,
  OAUTH_GOOGLE_AUTHORIZE_URL: optionalUrl,
  OAUTH_GOOGLE_TOKEN_URL: optionalUrl,
  OAUTH_GOOGLE_USERINFO_URL: optionalUrl,
  OAUTH_GOOGLE_SCOPES: optionalText,
});

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): Config =>
  loadConfig(configSchema, env);
