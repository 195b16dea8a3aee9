export * from './bounded-map.ts';
export * from './chunks.ts';
