import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@pp/contracts';
import { inBatches } from './consumer.ts';

describe('inBatches', () => {
  it('takes the types given, and handles one event as a batch of one with the same function', async () => {
    const calls: Array<[string[], EntityManager]> = [];
    const em = {} as EntityManager;
    const spec = inBatches(['story.reset', 'story.created'], async (events, given) => {
      calls.push([events.map((e) => e.id), given]);
    });
    expect(Object.keys(spec.handlers).sort()).toEqual(['story.created', 'story.reset']);
    const event = { id: 'e1', type: 'story.reset' } as unknown as EventEnvelope<never>;
    await spec.handlers['story.reset']!(event, em);
    await spec.batch!.handle([event, { ...event, id: 'e2' }], em);
    expect(calls).toEqual([
      [['e1'], em],
      [['e1', 'e2'], em],
    ]);
  });
});
