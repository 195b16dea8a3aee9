export * from './deadline.ts';
