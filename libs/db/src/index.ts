export * from './database.ts';
export * from './errors.ts';
export * from './admin.ts';
export { defineEntity, LockMode, p, type EntityManager } from '@mikro-orm/postgresql';
export { Migration } from '@mikro-orm/migrations';
export * from './prepared.ts';
export * from './turns.ts';
export * from './nfc.ts';
export * from './pruning.ts';
