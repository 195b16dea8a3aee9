import type { IncrementResponse, Options, Store } from 'express-rate-limit';

interface Count {
  totalHits: number;
  resetTime: Date;
}

/**
 * Counts of this process, answered synchronously (the hot path takes them without a promise): each
 * client's window starts with its first request and lasts `windowMs`, as express-rate-limit's
 * MemoryStore counts. Ended windows are swept once per window.
 */
export class LocalCounts implements Store {
  readonly localKeys = true;
  private windowMs = 60_000;
  private readonly counts = new Map<string, Count>();
  private sweeper: NodeJS.Timeout | undefined;

  init(options: Pick<Options, 'windowMs'>): void {
    this.windowMs = options.windowMs;
    clearInterval(this.sweeper);
    this.sweeper = setInterval(() => this.sweep(), this.windowMs).unref();
  }

  increment(key: string): IncrementResponse {
    const now = Date.now();
    let count = this.counts.get(key);
    if (!count || count.resetTime.getTime() <= now) {
      count = { totalHits: 0, resetTime: new Date(now + this.windowMs) };
      this.counts.set(key, count);
    }
    count.totalHits++;
    return count;
  }

  decrement(key: string): void {
    const count = this.counts.get(key);
    if (count && count.totalHits > 0) count.totalHits--;
  }

  resetKey(key: string): void {
    this.counts.delete(key);
  }

  /** Clients with a count (ended windows go at the next sweep). */
  get size(): number {
    return this.counts.size;
  }

  shutdown(): void {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, count] of this.counts) if (count.resetTime.getTime() <= now) this.counts.delete(key);
  }
}
