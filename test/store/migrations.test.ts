// A database of an earlier release, migrated: the rows it held read back as the contract of now
// says they read, with the defaults openapi.yaml documents for the fields added since. On SQLite,
// and on PostgreSQL in the `postgres` project.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configRulesOf } from '../../server/domain/destination-config-rules.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { compileComponent, createSpecAjv } from '../../server/spec.js';
import { type OpenedDatabase, openDatabase, parseDatabaseUrl } from '../../server/store/database.js';
import { migrateToLatest } from '../../server/store/migrate.js';
import { createStore, type Store } from '../../server/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { migrateTo } from '../support/migrations.js';
import { destinationTypes, spec } from '../support/server.js';

const secrets = createSecretBox(randomBytes(32));
const CREATED = '2026-01-01T00:00:00.000Z';
const KEY_HASH = 'b'.repeat(64);
const WORKSPACE = '0f3e9a1c-2b4d-4e6f-8a0b-1c2d3e4f5a6b';
const DESTINATION = '7019b9f2-c5e6-4f46-873e-55a17bb095a3';
/** A second destination of 2.1.0, for the test that changes one, so that the tests pass in any order. */
const PATCHED_DESTINATION = '2b8e4c1d-9f3a-4e7b-8c6d-5a4f3e2d1c0b';
let database: TestDatabase;
let opened: OpenedDatabase;
let store: Store;

beforeAll(async () => {
  database = await createTestDatabase();
  const location = parseDatabaseUrl(database.url);
  opened = await openDatabase(location);
  // The schema of contract 2.1.0, and rows written as that release wrote them.
  await migrateTo(opened.db, '0001_initial');
  await sql`insert into workspaces (id, name, created_at) values (${WORKSPACE}, 'W', ${CREATED})`.execute(opened.db);
  await sql`insert into api_keys (id, workspace_id, hash, label, name, kind, created_at)
    values ('k1', ${WORKSPACE}, ${KEY_HASH}, 'sk-or-v1-bbb...bbbb', 'Old key', 'management', ${CREATED})`.execute(
    opened.db,
  );
  const config = secrets.seal(JSON.stringify({ url: 'https://example.com/hook' }));
  for (const id of [DESTINATION, PATCHED_DESTINATION])
    await sql`insert into destinations (id, workspace_id, type, config_sealed, created_at, updated_at)
      values (${id}, ${WORKSPACE}, 'webhook', ${config}, ${CREATED}, ${CREATED})`.execute(opened.db);
  await migrateToLatest(opened.db);
  store = createStore(opened, secrets, location.kind);
});

afterAll(async () => {
  await store.close();
  await database.drop();
});

describe('a database of contract 2.1.0, migrated', () => {
  it('keeps its keys valid: external_user is null', async () => {
    const key = await store.keys.findInWorkspaceWithUsage(WORKSPACE, KEY_HASH, {
      day: '2026-01-01',
      weekStart: '2025-12-29',
      monthStart: '2026-01-01',
    });
    expect(key).toMatchObject({ hash: KEY_HASH, external_user: null });
    const validate = compileComponent(createSpecAjv(spec), 'ApiKey');
    expect(validate({ ...key, limit_remaining: null }), JSON.stringify(validate.errors)).toBe(true);
  });

  it('keeps its destinations valid: no broadcast flag set, and the regions [global]', async () => {
    const outcome = await store.destinations.update(
      WORKSPACE,
      DESTINATION,
      new Date(CREATED),
      { changes: {} },
      (type) => configRulesOf(destinationTypes, type),
    );
    expect(outcome).toMatchObject({ outcome: 'unchanged' });
    expect(outcome?.destination.state).toEqual({
      name: null,
      enabled: true,
      privacy_mode: false,
      sampling_rate: 1,
      api_key_hashes: null,
      filter_rules: null,
      broadcast_generation_cost: false,
      broadcast_generation_identity: false,
      broadcast_generation_request_context: false,
      regions: ['global'],
      config: { url: 'https://example.com/hook' },
    });
  });

  it('stores what a PATCH sets of the new fields, and reads it back', async () => {
    const changes = { broadcast_generation_identity: true, regions: ['us', 'eu'] as ('us' | 'eu')[] };
    const rulesOf = (type: Parameters<typeof configRulesOf>[1]) => configRulesOf(destinationTypes, type);
    expect(
      await store.destinations.update(WORKSPACE, PATCHED_DESTINATION, new Date(), { changes }, rulesOf),
    ).toMatchObject({
      outcome: 'changed',
    });
    const again = await store.destinations.update(WORKSPACE, PATCHED_DESTINATION, new Date(), { changes: {} }, rulesOf);
    expect(again?.destination.state).toMatchObject({
      broadcast_generation_cost: false,
      broadcast_generation_identity: true,
      regions: ['europe', 'us'],
    });
  });

  it('refuses no migration name it does not have', async () => {
    await expect(migrateTo(opened.db, '0000_none')).rejects.toThrow('no migration named 0000_none');
  });
});
