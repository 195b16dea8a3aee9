import { Migration } from '@mikro-orm/migrations';

/**
 * A migration that builds indexes on tables that may be large, without holding their writes: each
 * index is built `concurrently`, which cannot run in a transaction, so the migration runs outside one
 * (the others each run in their own). An index an interrupted build left behind (invalid, unused by
 * the planner) is dropped first, so the migration, not logged as applied until it ends, runs again
 * whole at the next start.
 */
export abstract class IndexBuildMigration extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  /** Builds index `name` (`definition`: what follows its name, `on table (...)`), concurrently. */
  protected buildIndex(name: string, definition: string): void {
    this.addSql(`drop index concurrently if exists ${name}`);
    this.addSql(`create index concurrently ${name} ${definition}`);
  }

  protected dropIndex(name: string): void {
    this.addSql(`drop index concurrently if exists ${name}`);
  }
}
