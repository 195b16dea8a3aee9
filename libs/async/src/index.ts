export * from './deadline.ts';
export * from './steps.ts';
export * from './turns.ts';
