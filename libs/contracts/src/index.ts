export * from './envelope.ts';
export * from './events.ts';
export * from './round.ts';
export * from './ids.ts';
export * from './stories-for-units.ts';
export * from './cards.ts';
export * from './text.ts';
export * from './participant-token.ts';
