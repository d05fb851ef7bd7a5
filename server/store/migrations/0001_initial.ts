// The schema of contract 2.1.0: workspaces, keys with their daily usage, destinations, presets.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
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
}
