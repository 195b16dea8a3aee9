import type { EntityManager } from '@pp/db';
import type { OAuthStateSigner } from '@pp/http';
import type { Logger } from '@pp/logger';
import type { OutboundPolicy } from '@pp/outbound';
import type { IssueAdapter } from '../../clients/providers/adapter.ts';
import type { OAuthClient } from '../../clients/oauth.client.ts';
import type { UnitsClient } from '../../clients/units.client.ts';
import type { CredentialsCipher } from '../../domain/credentials-cipher.ts';
import type { ImportProviderId } from '../../domain/providers.ts';
import type { OAuthApps } from '../../domain/oauth.ts';

/** What a use case works with. */
export interface IntegrationsContext {
  em: EntityManager;
  units: UnitsClient;
  adapters: Record<ImportProviderId, IssueAdapter>;
  cipher: CredentialsCipher;
  /** Whether private and loopback tracker addresses may be called (never link-local or metadata ones). */
  outbound: OutboundPolicy;
  oauth: OAuthClient;
  /** Token refreshes in flight in this process (this instance of the unit), by connection: callers share one. */
  refreshes: Map<string, Promise<Record<string, string>>>;
  oauthApps: OAuthApps;
  states: OAuthStateSigner;
  /** The API's public URL (OAuth redirect URIs), and how long a started OAuth flow may take. */
  publicBaseUrl: string;
  stateTtlSeconds: number;
  /** Atlassian's API root for OAuth connections (`/ex/jira/{cloudId}`) and their list of sites. */
  jiraCloudApiUrl: string;
  /** Publishes what the outbox holds right away (call after a commit). */
  publish: () => void;
  now: () => Date;
  logger: Logger;
}

export type ContextFactory = (em: EntityManager) => IntegrationsContext;

export const SOURCE = 'integrations';
