import type { ExternalIssue } from '../../domain/issues.ts';
import type { ProviderHttp, ProviderHttpOptions } from './provider-http.ts';

/** A connection as an adapter uses it: its settings, and its credentials (fresh: refreshed when they expire). */
export interface ProviderConnection {
  id: string;
  authMethod: 'token' | 'oauth' | 'none';
  settings: Record<string, unknown>;
  credentials: () => Promise<Record<string, string>>;
}

export interface IssuePage {
  items: ExternalIssue[];
  /** Where the next page starts (the provider's own cursor, page number or offset); none after the last. */
  next?: string;
}

/** How the estimate was written back: as a field of the issue, a label, or a comment. */
export type WriteMode = 'field' | 'label' | 'comment';

export interface AdapterDeps {
  http: (options: Omit<ProviderHttpOptions, 'provider'>) => ProviderHttp;
  /** The hosted provider's API root (configuration), for providers without a self-hosted address. */
  apiUrl?: string;
  /** The fixed pause after a rate limit that says nothing of when to come back. */
  backoffMs?: number;
}

/** One tracker behind one interface: every adapter speaks its provider's real protocol. */
export interface IssueAdapter {
  /** Names the tracker instance the issues come from (with the external id, the key of an import's idempotency). */
  source(settings: Record<string, unknown>): string;
  /**
   * An external id as a user may write it (a Notion id without dashes, a number with leading zeros,
   * a key in small letters) in the form the tracker's issues carry, which an import is keyed by.
   */
  idOf(id: string): string;
  /** The user-supplied addresses of the settings, checked against SSRF when saved: field name and URL. */
  urls(settings: Record<string, unknown>): Array<{ field: string; url: string }>;
  /** The credentials work and the configured project can be reached; who they belong to. */
  test(c: ProviderConnection): Promise<{ account: string; warnings: string[] }>;
  /** One page of the configured issues, from a cursor this adapter returned (or the first). */
  page(c: ProviderConnection, cursor?: string): Promise<IssuePage>;
  /** These issues (by external id), in the order given; unknown ones left out. */
  fetch(c: ProviderConnection, ids: string[]): Promise<ExternalIssue[]>;
  /** Writes the final estimate back to the issue; how it went there. */
  writeEstimate(c: ProviderConnection, externalId: string, estimate: string): Promise<WriteMode[]>;
}

/** The API root without its trailing slash. */
export const root = (url: unknown) => String(url ?? '').replace(/\/+$/, '');
export const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The token an OAuth connection got from the provider, or the one pasted in. */
export const tokenOf = (credentials: Record<string, string>) =>
  credentials.access_token ?? credentials.token ?? '';
