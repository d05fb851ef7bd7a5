// The schema the migrations leave: the defaults of a row written with its required columns only
// (by a later migration or by hand), and the names of indexes and constraints later migrations use.
// The tests share one database: each reads back only the rows it wrote, so that any order passes.
import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenedDatabase, openDatabase } from '../../server/store/database.js';
import { migrateToLatest } from '../../server/store/migrate.js';

let opened: OpenedDatabase;

beforeAll(async () => {
  opened = await openDatabase({ kind: 'sqlite', filename: ':memory:' });
  await migrateToLatest(opened.db);
});

afterAll(async () => {
  await opened.db.destroy();
});

const rows = async (query: RawBuilder<unknown>) => (await query.execute(opened.db)).rows;

describe('the schema', () => {
  it('defaults a new key to enabled, BYOK outside its limit, and no usage', async () => {
    await rows(sql`insert into workspaces (id, name, created_at) values ('w1', 'W', '2026-01-01T00:00:00.000Z')`);
    await rows(sql`insert into api_keys (id, workspace_id, hash, label, name, kind, created_at)
      values ('k1', 'w1', ${'a'.repeat(64)}, 'sk-...aaaa', 'K', 'standard', '2026-01-01T00:00:00.000Z')`);
    expect(
      await rows(
        sql`select disabled, include_byok_in_limit, usage_total, byok_usage_total from api_keys where id = 'k1'`,
      ),
    ).toEqual([{ disabled: 0, include_byok_in_limit: 0, usage_total: 0, byok_usage_total: 0 }]);

    await rows(sql`insert into key_usage_daily (key_id, day) values ('k1', '2026-01-01')`);
    expect(await rows(sql`select usage, byok_usage from key_usage_daily where key_id = 'k1'`)).toEqual([
      { usage: 0, byok_usage: 0 },
    ]);
  });

  it('defaults a new destination to enabled, without privacy mode, sampling everything, broadcasting no generation metadata, in the global region, at revision 1', async () => {
    await rows(sql`insert into workspaces (id, name, created_at) values ('w2', 'W', '2026-01-01T00:00:00.000Z')`);
    await rows(sql`insert into destinations (id, workspace_id, type, config_sealed, created_at, updated_at)
      values ('d1', 'w2', 'webhook', 'sealed', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`);
    expect(
      await rows(sql`select enabled, privacy_mode, sampling_rate, revision, broadcast_generation_cost,
        broadcast_generation_identity, broadcast_generation_request_context, regions from destinations where id = 'd1'`),
    ).toEqual([
      {
        enabled: 1,
        privacy_mode: 0,
        sampling_rate: 1,
        revision: 1,
        broadcast_generation_cost: 0,
        broadcast_generation_identity: 0,
        broadcast_generation_request_context: 0,
        regions: '["global"]',
      },
    ]);
  });

  it('defaults a new preset to no versions', async () => {
    await rows(sql`insert into workspaces (id, name, created_at) values ('w3', 'W', '2026-01-01T00:00:00.000Z')`);
    await rows(sql`insert into presets (id, workspace_id, slug, name, created_at)
      values ('p1', 'w3', 'p', 'P', '2026-01-01T00:00:00.000Z')`);
    expect(await rows(sql`select version_count from presets where id = 'p1'`)).toEqual([{ version_count: 0 }]);
  });

  it('names the indexes on workspace_id', async () => {
    expect(
      await rows(sql`select name, tbl_name from sqlite_master where type = 'index' and sql is not null order by name`),
    ).toEqual([
      { name: 'api_keys_workspace_idx', tbl_name: 'api_keys' },
      { name: 'destinations_workspace_idx', tbl_name: 'destinations' },
    ]);
  });

  it('names the composite primary key and the unique constraints', async () => {
    const tables = (await rows(
      sql`select name, sql from sqlite_master where type = 'table' and name not like 'kysely_%' order by name`,
    )) as { name: string; sql: string }[];
    const constraints = Object.fromEntries(
      tables.map(({ name, sql: ddl }) => [name, [...ddl.matchAll(/constraint "([^"]*)"/g)].map((match) => match[1])]),
    );
    expect(constraints).toEqual({
      api_keys: [],
      copy_progress: [],
      destinations: [],
      key_usage_daily: ['key_usage_daily_pk'],
      preset_versions: ['preset_versions_preset_version_unique'],
      presets: ['presets_workspace_slug_unique'],
      service_state: [],
      workspaces: [],
    });
  });

  it('keeps a preset slug unique in its workspace, and a version number unique in its preset', async () => {
    await rows(sql`insert into workspaces (id, name, created_at) values ('w4', 'W', '2026-01-01T00:00:00.000Z')`);
    await rows(sql`insert into presets (id, workspace_id, slug, name, created_at)
      values ('p4', 'w4', 'same', 'P', '2026-01-01T00:00:00.000Z')`);
    await expect(
      rows(sql`insert into presets (id, workspace_id, slug, name, created_at)
        values ('p5', 'w4', 'same', 'Q', '2026-01-01T00:00:00.000Z')`),
    ).rejects.toThrow(/^UNIQUE constraint failed/);
    const version = (id: string) =>
      rows(sql`insert into preset_versions (id, preset_id, version, config, creator_id, created_at, updated_at)
        values (${id}, 'p4', 1, '{}', 'u', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`);
    await version('v1');
    await expect(version('v2')).rejects.toThrow(/^UNIQUE constraint failed/);
  });
});
