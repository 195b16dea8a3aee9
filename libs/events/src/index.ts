export * from './entities.ts';
export * from './migration.ts';
export * from './bus.ts';
export * from './outbox.ts';
export * from './nats.ts';
export * from './relay.ts';
export * from './consumer.ts';
export * from './processed-events.ts';
