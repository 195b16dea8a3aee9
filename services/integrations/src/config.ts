import { defaultServiceUrl, envBoolean, loadConfig, port, secret, serviceEnv, z } from '@pp/config';

const optionalText = z.string().min(1).optional();
const url = (fallback: string) => z.url().default(fallback);

export const configSchema = z.object({
  ...serviceEnv,
  PORT: port(8085),
  /** Encrypts stored tracker credentials (any secret of 32 characters or more; the AES key is derived from it). */
  CREDENTIALS_ENCRYPTION_KEY: secret,
  /** Keys used before a rotation (comma-separated): still read, never written with. */
  CREDENTIALS_ENCRYPTION_PREVIOUS_KEYS: z.string().default(''),
  /** The owner of sessions (who owns one) and of stories (where imports go, what was revealed). */
  SESSIONS_URL: url(defaultServiceUrl('sessions')),
  STORIES_URL: url(defaultServiceUrl('stories')),
  UNITS_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  /** Private and loopback tracker addresses (self-hosted trackers on a private network, local fakes). */
  OUTBOUND_ALLOW_PRIVATE: envBoolean(false),
  /** Longest a call to a tracker may take, and the largest answer read from one. */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  PROVIDER_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(5 * 1024 * 1024),
  /** Longest wait a tracker's rate limit may impose on a request before it answers 503 with Retry-After. */
  PROVIDER_MAX_RETRY_WAIT_MS: z.coerce.number().int().min(0).default(5_000),
  /** Trello sends no Retry-After: the fixed pause after its 429. */
  TRELLO_BACKOFF_MS: z.coerce.number().int().min(0).default(1_000),
  /** The API's public URL: OAuth redirect URIs are built from it. */
  PUBLIC_BASE_URL: url('http://127.0.0.1:8080'),
  OAUTH_STATE_TTL_SECONDS: z.coerce.number().int().min(30).default(600),
  // The hosted providers' API and OAuth addresses (self-hosted ones take theirs from the connection).
  GITHUB_OAUTH_URL: url('https://github.com'),
  LINEAR_API_URL: url('https://api.linear.app'),
  LINEAR_OAUTH_URL: url('https://linear.app'),
  JIRA_OAUTH_URL: url('https://auth.atlassian.com'),
  JIRA_CLOUD_API_URL: url('https://api.atlassian.com'),
  AZURE_DEVOPS_OAUTH_URL: url('https://login.microsoftonline.com/organizations'),
  TRELLO_API_URL: url('https://api.trello.com/1'),
  NOTION_API_URL: url('https://api.notion.com/v1'),
  // A provider's OAuth app is on when both its client id and secret are set.
  INTEGRATION_GITHUB_CLIENT_ID: optionalText,
  INTEGRATION_GITHUB_CLIENT_SECRET: optionalText,
  INTEGRATION_LINEAR_CLIENT_ID: optionalText,
  INTEGRATION_LINEAR_CLIENT_SECRET: optionalText,
  INTEGRATION_JIRA_CLIENT_ID: optionalText,
  INTEGRATION_JIRA_CLIENT_SECRET: optionalText,
  INTEGRATION_AZURE_DEVOPS_CLIENT_ID: optionalText,
  INTEGRATION_AZURE_DEVOPS_CLIENT_SECRET: optionalText,
  INTEGRATION_NOTION_CLIENT_ID: optionalText,
  INTEGRATION_NOTION_CLIENT_SECRET: optionalText,
});

export type Config = z.infer<typeof configSchema>;
export const readConfig = (env: Record<string, string | undefined> = process.env): Config =>
  loadConfig(configSchema, env);
