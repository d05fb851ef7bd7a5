// Store operations the CLI and the handlers rely on beyond the HTTP tests: whether a workspace
// exists, enabling and disabling a key by hash, how destinations are kept at rest, resealing after
// a key rotation, and which read of a destination update takes a row lock on each dialect.
import { randomBytes } from 'node:crypto';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DestinationType, loadDestinationTypeRules } from '../../server/domain/destination-config-rules.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { loadSpec } from '../../server/spec.js';
import { type OpenedDatabase, openDatabase } from '../../server/store/database.js';
import { migrateToLatest } from '../../server/store/migrate.js';
import type { QueryDriver, RowRead } from '../../server/store/prepared.js';
import { createStore, type Store } from '../../server/store/store.js';
import { type Database, DESTINATION_COLUMNS } from '../../server/store/tables.js';
import { readDestination } from '../support/destinations.js';

let opened: OpenedDatabase;
let store: Store;
const oldKey = randomBytes(32);

beforeEach(async () => {
  opened = await openDatabase({ kind: 'sqlite', filename: ':memory:' });
  await migrateToLatest(opened.db);
  store = createStore(opened, createSecretBox(oldKey));
});

afterEach(async () => {
  await store.close();
});

const webhook = (workspaceId: string, name: string) => ({
  workspace_id: workspaceId,
  type: 'webhook' as const,
  name,
  config: { url: `https://example.com/${name}` },
});

describe('workspaces', () => {
  it('exist once created, and not otherwise', async () => {
    const workspace = await store.workspaces.create('W', new Date());
    expect(await store.workspaces.exists(workspace.id)).toBe(true);
    expect(await store.workspaces.exists('00000000-0000-4000-8000-000000000000')).toBe(false);
  });
});

describe('disabling a key by its hash', () => {
  it('says whether there was such a key, and changes only that one', async () => {
    const workspace = await store.workspaces.create('W', new Date());
    const key = (hash: string) =>
      store.keys.create(
        {
          workspace_id: workspace.id,
          hash,
          label: 'sk-...0000',
          name: 'K',
          kind: 'standard',
          disabled: false,
          include_byok_in_limit: false,
        },
        new Date('2026-01-01T00:00:00.000Z'),
      );
    const target = await key('a'.repeat(64));
    const other = await key('b'.repeat(64));

    expect(await store.keys.setDisabled('a'.repeat(64), true, new Date('2026-01-02T00:00:00.000Z'))).toBe(true);
    expect(await store.keys.findByHash('a'.repeat(64))).toEqual({ ...target, disabled: true, hash: undefined });
    expect(await store.keys.findByHash('b'.repeat(64))).toEqual({ ...other, hash: undefined });

    expect(await store.keys.setDisabled('a'.repeat(64), false, new Date('2026-01-03T00:00:00.000Z'))).toBe(true);
    expect((await store.keys.findByHash('a'.repeat(64)))?.disabled).toBe(false);

    expect(await store.keys.setDisabled('c'.repeat(64), true, new Date())).toBe(false);
  });
});

describe('destinations at rest', () => {
  it('keep no key hashes and no filter rules as SQL NULL, and any other value as JSON', async () => {
    const workspace = await store.workspaces.create('W', new Date());
    const plain = await store.destinations.create(webhook(workspace.id, 'plain'), new Date());
    const filtered = await store.destinations.create(
      { ...webhook(workspace.id, 'filtered'), api_key_hashes: [], filter_rules: { groups: [] } },
      new Date(),
    );
    const stored = await opened.db
      .selectFrom('destinations')
      .select(['id', 'api_key_hashes', 'filter_rules'])
      .orderBy('name')
      .execute();
    expect(stored).toEqual([
      { id: filtered.id, api_key_hashes: '[]', filter_rules: '{"groups":[]}' },
      { id: plain.id, api_key_hashes: null, filter_rules: null },
    ]);
    expect((await readDestination(store, workspace.id, plain.id))?.state).toMatchObject({
      api_key_hashes: null,
      filter_rules: null,
    });
    expect((await readDestination(store, workspace.id, filtered.id))?.state).toMatchObject({
      api_key_hashes: [],
      filter_rules: { groups: [] },
    });
  });
});

describe('the sealed config of an update', () => {
  const rulesOf = (type: DestinationType) => {
    const rules = loadDestinationTypeRules(loadSpec()).get(type);
    if (!rules) throw new Error(`no rules for ${type}`);
    return rules;
  };
  const sealedConfigOf = async (id: string) =>
    (await opened.db.selectFrom('destinations').select('config_sealed').where('id', '=', id).executeTakeFirstOrThrow())
      .config_sealed;

  it('is kept byte for byte when only other fields change, and sealed anew when the config changes', async () => {
    const workspace = await store.workspaces.create('W', new Date());
    const destination = await store.destinations.create(webhook(workspace.id, 'd'), new Date());
    const sealed = await sealedConfigOf(destination.id);

    const renamed = await store.destinations.update(
      workspace.id,
      destination.id,
      new Date(),
      { changes: { name: 'N', sampling_rate: 0.5 } },
      rulesOf,
    );
    expect(renamed?.outcome).toBe('changed');
    expect(await sealedConfigOf(destination.id)).toBe(sealed);

    const sameUrl = { config: { url: 'https://example.com/d' } };
    await store.destinations.update(
      workspace.id,
      destination.id,
      new Date(),
      { changes: { ...sameUrl, enabled: false } },
      rulesOf,
    );
    expect(await sealedConfigOf(destination.id)).toBe(sealed);

    await store.destinations.update(
      workspace.id,
      destination.id,
      new Date(),
      { changes: { config: { url: 'https://example.com/e' } } },
      rulesOf,
    );
    expect(await sealedConfigOf(destination.id)).not.toBe(sealed);
    expect((await readDestination(store, workspace.id, destination.id))?.state.config).toEqual({
      url: 'https://example.com/e',
    });
  });

  it('is sealed under the current key by any change once the key has rotated', async () => {
    const workspace = await store.workspaces.create('W', new Date());
    const destination = await store.destinations.create(webhook(workspace.id, 'd'), new Date());
    const newKey = randomBytes(32);
    const rotating = createStore(opened, createSecretBox(newKey, [oldKey]));
    await rotating.destinations.update(workspace.id, destination.id, new Date(), { changes: { name: 'N' } }, rulesOf);
    expect(createSecretBox(newKey).isCurrent(await sealedConfigOf(destination.id))).toBe(true);
  });
});

describe('resealing after a key rotation', () => {
  it('reseals every config under the new key, across pages of rows, and counts those already under it', async () => {
    const workspace = await store.workspaces.create('W', new Date());
    const created = [];
    for (let n = 0; n < 230; n++)
      created.push(await store.destinations.create(webhook(workspace.id, `d${n}`), new Date()));
    const newKey = randomBytes(32);
    const rotating = createStore(opened, createSecretBox(newKey, [oldKey]));
    for (let n = 0; n < 3; n++)
      created.push(await rotating.destinations.create(webhook(workspace.id, `new${n}`), new Date()));

    expect(await rotating.destinations.resealAll()).toEqual({ resealed: 230, current: 3 });
    expect(await rotating.destinations.resealAll()).toEqual({ resealed: 0, current: 233 });

    // The old key is no longer needed to read any of them.
    const newKeyOnly = createStore(opened, createSecretBox(newKey));
    for (const destination of created)
      expect((await readDestination(newKeyOnly, workspace.id, destination.id))?.state.config).toEqual(
        destination.state.config,
      );
  });

  it('finds nothing to do in a database with no destinations', async () => {
    expect(await store.destinations.resealAll()).toEqual({ resealed: 0, current: 0 });
  });
});

describe('the reads of a destination update', () => {
  /** A driver that keeps the reads it is asked for, and finds no row. */
  function recordingDriver(reads: RowRead<unknown>[]): QueryDriver {
    return {
      async run() {
        return [];
      },
      async readModifyWrite(read, decide) {
        reads.push(read);
        return decide(undefined).result;
      },
    };
  }
  // Named, never `*`: a column an expand migration adds changes nothing that is read.
  const columns = DESTINATION_COLUMNS.map((column) => `"${column}"`).join(', ');
  const update = (target: Store) =>
    target.destinations.update('w', 'd', new Date(), { changes: { name: 'N' } }, () => {
      throw new Error('no rules are needed for a missing destination');
    });

  it('lock the row on PostgreSQL when the plain read keeps losing races', async () => {
    const db = new Kysely<Database>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (inner) => new PostgresIntrospector(inner),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    const reads: RowRead<unknown>[] = [];
    const postgres = createStore({ db, driver: recordingDriver(reads) }, createSecretBox(oldKey), 'postgres');
    expect(await update(postgres)).toBeUndefined();
    const select = `select ${columns} from "destinations" where "id" = $1 and "workspace_id" = $2`;
    expect(reads.map(({ plain, locking }) => [plain.sql, locking.sql])).toEqual([[select, `${select} for update`]]);
    expect(reads.map(({ plain, locking }) => [plain.name, locking.name])).toEqual([
      ['destinations.read', 'destinations.readForUpdate'],
    ]);
    expect(reads[0]?.locking.parameters).toEqual(['d', 'w']);
    // Writers queue per row, in the workspace that names it.
    expect(reads[0]?.row).toBe('destinations/w/d');
  });

  it('are the same plain read on SQLite, which has no row locks', async () => {
    const db = new Kysely<Database>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (inner) => new SqliteIntrospector(inner),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    });
    const reads: RowRead<unknown>[] = [];
    const sqlite = createStore({ db, driver: recordingDriver(reads) }, createSecretBox(oldKey));
    expect(await update(sqlite)).toBeUndefined();
    const select = `select ${columns} from "destinations" where "id" = ? and "workspace_id" = ?`;
    expect(reads.map(({ plain, locking }) => [plain.sql, locking.sql])).toEqual([[select, select]]);
  });
});
