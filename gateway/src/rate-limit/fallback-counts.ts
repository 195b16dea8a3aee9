import { within } from '@pp/async';
import type { Logger } from '@pp/logger';
import type { Count, Counts } from './counts.ts';
import { LocalCounts } from './local-counts.ts';

/**
 * The shared counts (Redis) with a local stand-in: when the shared ones error or are slow, this
 * replica goes on limiting with its own counts rather than letting every request through or hanging.
 */
export class FallbackCounts implements Counts {
  private readonly local: LocalCounts;
  private readonly shared: Counts;
  private readonly timeoutMs: number;
  private readonly logger: Logger;
  private failing = false;

  constructor(shared: Counts, options: { windowMs: number; timeoutMs: number; logger: Logger }) {
    this.shared = shared;
    this.local = new LocalCounts(options.windowMs);
    this.timeoutMs = options.timeoutMs;
    this.logger = options.logger;
  }

  add(key: string, hits: number): Promise<Count> {
    return this.either(
      () => this.shared.add(key, hits),
      () => this.local.add(key, hits),
    );
  }

  peek(key: string): Promise<Count> {
    return this.either(
      () => this.shared.peek(key),
      () => this.local.peek(key),
    );
  }

  shutdown(): void {
    this.local.shutdown();
  }

  private async either(shared: () => Count | Promise<Count>, local: () => Count): Promise<Count> {
    try {
      const result = await within(
        this.timeoutMs,
        Promise.resolve(shared()),
        () => new Error('rate limit store timed out'),
      );
      if (this.failing) this.logger.info('rate limit store is back');
      this.failing = false;
      return result;
    } catch (err) {
      if (!this.failing) this.logger.warn({ err }, 'rate limit store unavailable: counting locally');
      this.failing = true;
      return local();
    }
  }
}
