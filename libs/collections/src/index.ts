export * from './bounded-map.ts';
