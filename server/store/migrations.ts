// One set of migrations for every dialect, kept in code so that they ship with the server.
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Database } from './tables.js';

const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('workspace_id', 'varchar(36)', (c) => c.notNull().references('workspaces.id'))
        .addColumn('hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull().check(sql`kind in ('management', 'standard')`))
        .addColumn('disabled', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('spend_limit', 'double precision')
        .addColumn('limit_reset', 'varchar(16)', (c) => c.check(sql`limit_reset in ('daily', 'weekly', 'monthly')`))
        .addColumn('include_byok_in_limit', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('usage_total', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('byok_usage_total', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'varchar(32)')
        .addColumn('creator_user_id', 'text')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('api_keys_workspace_idx').on('api_keys').column('workspace_id').execute();

      await db.schema
        .createTable('key_usage_daily')
        .addColumn('key_id', 'varchar(36)', (c) => c.notNull().references('api_keys.id'))
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('usage', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('byok_usage', 'double precision', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('key_usage_daily_pk', ['key_id', 'day'])
        .execute();

      await db.schema
        .createTable('destinations')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('workspace_id', 'varchar(36)', (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', 'text')
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('privacy_mode', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('sampling_rate', 'double precision', (c) => c.notNull().defaultTo(1))
        .addColumn('api_key_hashes', 'text')
        .addColumn('filter_rules', 'text')
        .addColumn('config_sealed', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('destinations_workspace_idx').on('destinations').column('workspace_id').execute();

      await db.schema
        .createTable('presets')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('workspace_id', 'varchar(36)', (c) => c.notNull().references('workspaces.id'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('version_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addUniqueConstraint('presets_workspace_slug_unique', ['workspace_id', 'slug'])
        .execute();

      await db.schema
        .createTable('preset_versions')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('preset_id', 'varchar(36)', (c) => c.notNull().references('presets.id'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('system_prompt', 'text')
        .addColumn('creator_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .addUniqueConstraint('preset_versions_preset_version_unique', ['preset_id', 'version'])
        .execute();
    },
  },
  // Contract 2.2.0. Each column has the value a row written before it must show (openapi.yaml says
  // these defaults), so that every existing key and destination stays valid as it is read.
  '0002_external_user_broadcast_regions': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').addColumn('external_user', 'text').execute();
      for (const column of [
        'broadcast_generation_cost',
        'broadcast_generation_identity',
        'broadcast_generation_request_context',
      ]) {
        await db.schema
          .alterTable('destinations')
          .addColumn(column, 'boolean', (c) => c.notNull().defaultTo(false))
          .execute();
      }
      // JSON text, as api_key_hashes: the list as the API returns it.
      await db.schema
        .alterTable('destinations')
        .addColumn('regions', 'text', (c) => c.notNull().defaultTo('["global"]'))
        .execute();
    },
  },
};

class InCodeMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

function failed({ error }: { error?: unknown }): void {
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  failed(await new Migrator({ db, provider: new InCodeMigrationProvider() }).migrateToLatest());
}

/** Migrates up (or down) to the named migration: how a database of an earlier release looks. */
export async function migrateTo(db: Kysely<Database>, name: string): Promise<void> {
  if (!Object.hasOwn(migrations, name)) throw new Error(`no migration named ${name}`);
  failed(await new Migrator({ db, provider: new InCodeMigrationProvider() }).migrateTo(name));
}
