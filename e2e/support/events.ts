import type { EventEnvelope } from '@pp/contracts';
import { connectNats } from '@pp/events';
import { createLogger } from '@pp/logger';
import { testNatsUrl } from '@pp/testing';

const logger = createLogger({ name: 'e2e-events', level: 'silent' });

/** Every event the platform's units publish from now on (a plain NATS subscription on its prefix). */
export async function watchEvents(prefix: string) {
  const nc = await connectNats({ url: testNatsUrl(), name: 'e2e-events', logger });
  const seen: EventEnvelope[] = [];
  nc.subscribe(`${prefix}.>`, {
    callback: (_err, msg) => {
      seen.push(msg.json<EventEnvelope>());
    },
  });
  return {
    /** The events of a type seen so far, with their data. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    of: (type: string) => seen.filter((e) => e.type === type) as Array<EventEnvelope<any>>,
    close: () => nc.close(),
  };
}
