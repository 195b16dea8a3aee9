import { Migration } from '@pp/db';
import { nameKey } from '../../domain/owner-names.ts';

/** The tables whose names are one per owner, and the longest name each takes. */
const NAMED = [
  { table: 'folders', max: 64 },
  { table: 'templates', max: 100 },
];

/**
 * Folder and template names are unique per owner by a key the unit computes (nameKey) rather than by
 * PostgreSQL's lower(), which lowers only ASCII letters in a database made with the C locale. Names
 * kept before that are the same name by the new key (Équipe and équipe, both taken under the C
 * locale) are told apart by a number, the oldest keeping its name.
 */
export class NameKeysMigration extends Migration {
  override async up(): Promise<void> {
    for (const { table, max } of NAMED) {
      await this.execute(`alter table ${table} add column name_key varchar(400) null`);
      const kept = (await this.execute(`select id, owner_id, name from ${table} order by id`)) as Array<{
        id: number;
        owner_id: string;
        name: string;
      }>;
      const taken = new Set<string>();
      for (const row of kept) {
        let name = row.name;
        for (let n = 2; taken.has(`${row.owner_id}\n${nameKey(name)}`); n++) {
          const suffix = ` (${n})`;
          name = [...row.name].slice(0, max - suffix.length).join('') + suffix;
        }
        taken.add(`${row.owner_id}\n${nameKey(name)}`);
        await this.execute(`update ${table} set name = ?, name_key = ? where id = ?`, [
          name,
          nameKey(name),
          row.id,
        ]);
      }
      await this.execute(`alter table ${table} alter column name_key set not null`);
      await this.execute(`drop index if exists ${table}_owner_name_unique`);
      await this.execute(`create unique index ${table}_owner_name_unique on ${table} (owner_id, name_key)`);
    }
  }

  override async down(): Promise<void> {
    for (const { table } of NAMED) {
      this.addSql(`drop index if exists ${table}_owner_name_unique`);
      this.addSql(`alter table ${table} drop column name_key`);
      this.addSql(`create unique index ${table}_owner_name_unique on ${table} (owner_id, lower(name))`);
    }
  }
}
