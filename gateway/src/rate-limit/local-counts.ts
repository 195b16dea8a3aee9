import type { Count, Counts } from './counts.ts';

/**
 * Counts of this process, answered synchronously (the hot path takes them without a promise): each
 * bucket's window starts with its first request and lasts `windowMs`, as express-rate-limit's
 * MemoryStore counts. Ended windows are swept once per window.
 */
export class LocalCounts implements Counts {
  readonly localKeys = true;
  private readonly windowMs: number;
  private readonly counts = new Map<string, Count>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(windowMs: number) {
    this.windowMs = windowMs;
    this.sweeper = setInterval(() => this.sweep(), windowMs).unref();
  }

  add(key: string, hits: number): Count {
    const now = Date.now();
    let count = this.counts.get(key);
    if (!count || count.resetTime.getTime() <= now) {
      count = { totalHits: 0, resetTime: new Date(now + this.windowMs) };
      this.counts.set(key, count);
    }
    count.totalHits = Math.max(0, count.totalHits + hits);
    return count;
  }

  peek(key: string): Count {
    const count = this.counts.get(key);
    return count && count.resetTime.getTime() > Date.now()
      ? count
      : { totalHits: 0, resetTime: new Date(Date.now() + this.windowMs) };
  }

  /** Buckets with a count (ended windows go at the next sweep). */
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
