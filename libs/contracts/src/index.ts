export * from './envelope.ts';
export * from './events.ts';
