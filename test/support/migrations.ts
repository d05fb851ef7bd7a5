// How a database of an earlier release looks, for the tests of an upgrade: migrated up (or down)
// to one of this release's migrations, by name. A release itself only ever migrates to its latest
// (server/store/migrate.ts).
import { type Kysely, Migrator } from 'kysely';
import { releaseMigrations } from '../../server/store/migrate.js';
import type { Database } from '../../server/store/tables.js';

export async function migrateTo(db: Kysely<Database>, name: string): Promise<void> {
  const own = await releaseMigrations();
  if (!Object.hasOwn(own, name)) throw new Error(`no migration named ${name}`);
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => own } }).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
