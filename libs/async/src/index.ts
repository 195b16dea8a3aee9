export * from './deadline.ts';
export * from './steps.ts';
