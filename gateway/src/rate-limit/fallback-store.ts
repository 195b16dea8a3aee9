import type { IncrementResponse, Options, Store } from 'express-rate-limit';
import { within } from '@pp/async';
import type { Logger } from '@pp/logger';
import { LocalCounts } from './local-counts.ts';

/**
 * The shared store (Redis) with a local stand-in: when the shared one errors or is slow, this replica
 * goes on limiting with its own counts rather than letting every request through or hanging.
 */
export class FallbackStore implements Store {
  readonly localKeys = false;
  readonly prefix?: string;
  private readonly local = new LocalCounts();
  private readonly shared: Store;
  private readonly timeoutMs: number;
  private readonly logger: Logger;
  private failing = false;

  constructor(shared: Store, options: { timeoutMs: number; logger: Logger }) {
    this.shared = shared;
    this.prefix = shared.prefix;
    this.timeoutMs = options.timeoutMs;
    this.logger = options.logger;
  }

  init(options: Options): void {
    this.local.init(options);
    void this.shared.init?.(options);
  }

  async increment(key: string): Promise<IncrementResponse> {
    try {
      const result = await within(
        this.timeoutMs,
        Promise.resolve(this.shared.increment(key)),
        () => new Error('rate limit store timed out'),
      );
      if (this.failing) this.logger.info('rate limit store is back');
      this.failing = false;
      return result;
    } catch (err) {
      if (!this.failing) this.logger.warn({ err }, 'rate limit store unavailable: counting locally');
      this.failing = true;
      return this.local.increment(key);
    }
  }

  async decrement(key: string): Promise<void> {
    await Promise.allSettled([this.shared.decrement(key), this.local.decrement(key)]);
  }

  async resetKey(key: string): Promise<void> {
    await Promise.allSettled([this.shared.resetKey(key), this.local.resetKey(key)]);
  }

  shutdown(): void {
    this.local.shutdown();
  }
}
