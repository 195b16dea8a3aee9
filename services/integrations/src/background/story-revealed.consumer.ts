import type { ConsumerSpec } from '@pp/runtime';
import type { ContextFactory } from '../use-cases/shared/context.ts';
import { syncOnReveal } from '../use-cases/sync-on-reveal.use-case.ts';

/**
 * story.revealed: auto sync. The handler is idempotent by itself (a sync log row per event and story),
 * and calls a tracker: it runs outside any transaction.
 */
export const storyRevealedConsumer = (prefix: string, context: ContextFactory): ConsumerSpec => ({
  durable: `integrations-story-revealed`,
  filterSubject: `${prefix}.story.revealed`,
  idempotent: true,
  concurrency: 4,
  handlers: { 'story.revealed': (event, em) => syncOnReveal(context(em), event) },
});
