export * from './spans.ts';
export * from './start.ts';
