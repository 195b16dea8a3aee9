import type { NatsConnection } from '@pp/events';
import { eventEnvelopeSchema, parseEventData } from '@pp/contracts';
import type { Logger } from '@pp/logger';
import type { TokenCache } from './token-cache.ts';

/**
 * A plain subscription on `<prefix>.token.revoked`: every replica gets every revocation (JetStream
 * publishes reach core subscribers) and drops the token from its cache. After a disconnect the
 * replica may have missed some, so it forgets every cached valid token.
 */
export function listenForRevocations(nc: NatsConnection, cache: TokenCache, logger: Logger, prefix = 'pp') {
  const sub = nc.subscribe(`${prefix}.token.revoked`, {
    callback: (err, msg) => {
      if (err) return void logger.warn({ err }, 'revocation subscription error');
      try {
        const event = eventEnvelopeSchema.parse(msg.json());
        const data = parseEventData('token.revoked', event.data);
        cache.revoke(data.token_id);
        logger.debug({ token_id: data.token_id }, 'token revoked');
      } catch (e) {
        logger.warn({ err: e }, 'unreadable token.revoked message');
      }
    },
  });
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'reconnect') {
        cache.clearValid();
        logger.warn('nats reconnected: token cache cleared');
      }
    }
  })().catch(() => undefined);
  return { stop: () => sub.unsubscribe() };
}
