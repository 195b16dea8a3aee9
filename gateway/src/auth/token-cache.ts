import { BoundedMap } from '@pp/collections';
import type { Identity } from '@pp/http';

/** What a bearer token proves; signed anew per unit (with `iss` and `aud`) for each request. */
export type CachedIdentity = Omit<Identity, 'iat' | 'exp' | 'iss' | 'aud'>;
type Entry =
  { identity: CachedIdentity; tokenId: string; until: number } | { identity: undefined; until: number };

export interface TokenCacheOptions {
  positiveTtlMs: number;
  negativeTtlMs: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * What the gateway knows about bearer tokens, keyed by the token's hash: valid ones for a short
 * while (never past their expiry), invalid ones for less. `revoke(tokenId)` drops a token at once
 * and keeps it from being cached again by an introspection that was already under way.
 */
export class TokenCache {
  private readonly entries: BoundedMap<string, Entry>;
  private readonly keysByTokenId = new Map<string, Set<string>>();
  private readonly revoked = new Map<string, number>();
  private readonly options: Required<TokenCacheOptions>;

  constructor(options: TokenCacheOptions) {
    this.options = { maxEntries: 50_000, now: Date.now, ...options };
    // Oldest first out; a valid token's entry leaves its index with it.
    this.entries = new BoundedMap(this.options.maxEntries, (key, entry) => this.unindex(key, entry));
  }

  /** `undefined`: unknown; `{ identity: undefined }`: known to be invalid. */
  get(key: string): { identity: CachedIdentity | undefined } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.options.now()) {
      this.delete(key);
      return undefined;
    }
    return { identity: entry.identity };
  }

  setValid(key: string, identity: CachedIdentity, tokenId: string, expiresAt: number | null): void {
    const now = this.options.now();
    if ((this.revoked.get(tokenId) ?? 0) > now || this.options.positiveTtlMs === 0) return;
    const until = Math.min(now + this.options.positiveTtlMs, expiresAt ?? Infinity);
    this.put(key, { identity, tokenId, until });
    const keys = this.keysByTokenId.get(tokenId) ?? new Set<string>();
    keys.add(key);
    this.keysByTokenId.set(tokenId, keys);
  }

  setInvalid(key: string): void {
    if (this.options.negativeTtlMs > 0)
      this.put(key, { identity: undefined, until: this.options.now() + this.options.negativeTtlMs });
  }

  /** The token stops working here now; an answer about it that arrives later is not cached. */
  revoke(tokenId: string): void {
    const now = this.options.now();
    this.revoked.set(tokenId, now + this.options.positiveTtlMs * 2 + 1_000);
    for (const key of this.keysByTokenId.get(tokenId) ?? []) this.entries.delete(key);
    this.keysByTokenId.delete(tokenId);
    for (const [id, until] of this.revoked) if (until <= now) this.revoked.delete(id);
  }

  /** Forget every valid token (after a broker outage, when revocations may have been missed). */
  clearValid(): void {
    for (const [key, entry] of this.entries) if (entry.identity) this.entries.delete(key);
    this.keysByTokenId.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private put(key: string, entry: Entry): void {
    this.entries.set(key, entry);
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (entry) this.unindex(key, entry);
  }

  private unindex(key: string, entry: Entry): void {
    if (entry.identity) this.keysByTokenId.get(entry.tokenId)?.delete(key);
  }
}
