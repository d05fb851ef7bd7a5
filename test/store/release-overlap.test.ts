// Two releases on one database: this release opens a database that a newer release migrated with
// expand migrations (columns and an index it does not know, migrations it does not know recorded)
// and serves from it; it refuses one that holds a contract migration it does not know, in one line
// naming it; with MIGRATE_ON_START=false it applies nothing and refuses a database that lacks one of
// its own migrations. On SQLite, and on PostgreSQL in the `postgres` project.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { describeFailure } from '../../server/failure.js';
import { openDatabase, parseDatabaseUrl } from '../../server/store/database.js';
import { MigrationRefusal, migrationKind, planMigrations, releaseMigrations } from '../../server/store/migrate.js';
import { openStore } from '../../server/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { migrateTo } from '../support/migrations.js';
import { projectRoot } from '../support/process.js';
import { createWorkspace, destinationTypes, provision } from '../support/server.js';

const secrets = createSecretBox(randomBytes(32));
const NOW = new Date('2026-11-18T12:00:00.000Z');
let database: TestDatabase;
let url: string;
let folder: string;

/** The database's URL: SQLite in a file, so that it outlives one store; PostgreSQL a fresh database. */
beforeEach(async () => {
  database = await createTestDatabase();
  folder = mkdtempSync(join(tmpdir(), 'release-overlap-'));
  url = database.url === 'sqlite::memory:' ? `sqlite:${join(folder, 'api.db')}` : database.url;
});

afterEach(async () => {
  await database.drop();
  rmSync(folder, { recursive: true, force: true });
});

/** What a newer release's migration does to the database, applied from outside this release. */
async function applyFromOutside(name: string, change: (db: Kysely<unknown>) => Promise<void>): Promise<void> {
  const opened = await openDatabase(parseDatabaseUrl(url));
  const db = opened.db as unknown as Kysely<unknown>;
  try {
    await change(db);
    // Applied now, after what the database holds, as the release that writes it would.
    await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(db);
  } finally {
    await opened.db.destroy();
  }
}

/** An expand migration as the next release might write it: a column on each table, and an index. */
async function expand(db: Kysely<unknown>): Promise<void> {
  for (const table of ['workspaces', 'api_keys', 'key_usage_daily', 'destinations', 'presets', 'preset_versions'])
    await db.schema.alterTable(table).addColumn('added_by_next_release', 'text').execute();
  await db.schema.createIndex('destinations_type_idx').on('destinations').column('type').execute();
}

const refusalOf = (opening: Promise<unknown>) =>
  opening.then(
    () => {
      throw new Error('the store opened');
    },
    (err: unknown) => err,
  );

describe('migrations, as a release names them', () => {
  it('say their kind in their name after the first two, which only add', async () => {
    const names = Object.keys(await releaseMigrations());
    expect(names.slice(0, 2)).toEqual(['0001_initial', '0002_external_user_broadcast_regions']);
    for (const name of names.slice(2)) expect(name).toMatch(/^\d{4}_(expand|contract)_[a-z0-9_]+$/);
    expect(names.map(migrationKind).filter((kind) => kind === 'contract')).toEqual([]);
  });

  it('are every file of their folder, which holds nothing else', async () => {
    const files = readdirSync(join(projectRoot, 'server', 'store', 'migrations'));
    expect(files.filter((file) => !/^\d{4}_[a-z0-9_]+\.ts$/.test(file))).toEqual([]);
    expect(Object.keys(await releaseMigrations())).toEqual(files.map((file) => file.replace(/\.ts$/, '')));
  });

  it('are planned against what the database holds', () => {
    const known = ['0001_initial', '0002_b'];
    expect(planMigrations(known, [])).toEqual({ pending: known, newer: [] });
    expect(planMigrations(known, ['0001_initial'])).toEqual({ pending: ['0002_b'], newer: [] });
    expect(planMigrations(known, [...known, '0003_expand_c', '0004_d'])).toEqual({
      pending: [],
      newer: ['0003_expand_c', '0004_d'],
    });
    expect(() => planMigrations(known, [...known, '0003_expand_c', '0004_contract_drop_x'])).toThrow(
      'The database holds migration 0004_contract_drop_x, a contract migration this release does not know',
    );
    expect(() => planMigrations(known, ['0001_initial', '0003_expand_c'])).toThrow(
      "This release's migration 0002_b cannot be applied: the database already holds 0003_expand_c",
    );
    // A migration of another release older than every pending one of this release is no obstacle.
    expect(planMigrations(['0001_initial', '0003_c'], ['0001_initial', '0002_expand_x'])).toEqual({
      pending: ['0003_c'],
      newer: ['0002_expand_x'],
    });
  });

  it('are of the contract kind only when the name starts with the number and _contract_', () => {
    expect(
      ['0004_contract_drop_x', '0004_expand_add_x', 'x0004_contract_y', '0004_add_contract_y'].map(migrationKind),
    ).toEqual(['contract', 'expand', 'expand', 'expand']);
    expect(new MigrationRefusal('why').name).toBe('MigrationRefusal');
  });
});

describe('a database migrated by a newer release', () => {
  it('with expand migrations only: this release starts on it and serves from it, applying nothing', async () => {
    const first = await openStore(url, secrets);
    const workspace = await createWorkspace(first, NOW);
    const destination = await provision.createDestination(
      first,
      { workspaceId: workspace.id, type: 'otel-collector', config: { endpoint: 'https://otel.example.com' } },
      NOW,
    );
    await first.close();

    await applyFromOutside('0003_expand_next_release', expand);
    const store = await openStore(url, secrets);
    try {
      expect(store.migrationsApplied).toEqual([]);
      const key = await store.keys.findInWorkspaceWithUsage(workspace.id, workspace.standardKeyHash, {
        day: '2026-11-18',
        weekStart: '2026-11-16',
        monthStart: '2026-11-01',
      });
      expect(key?.hash).toBe(workspace.standardKeyHash);
      const rules = destinationTypes.get('otel-collector');
      if (!rules) throw new Error('no otel-collector rules');
      const updated = await store.destinations.update(
        workspace.id,
        destination.id,
        NOW,
        { changes: { sampling_rate: 0.5 } },
        () => rules,
      );
      expect(updated?.destination.state.sampling_rate).toBe(0.5);
    } finally {
      await store.close();
    }
  });

  it('with an expand migration named between two of its own: this release applies its later one past it', async () => {
    const names = Object.keys(await releaseMigrations());
    const [first, second] = names;
    if (!first || !second) throw new Error('this release has fewer than two migrations');
    const opened = await openDatabase(parseDatabaseUrl(url));
    await migrateTo(opened.db, first);
    await opened.db.destroy();
    const between = `${first}_zz_next_release`;
    expect([first < between, between < second]).toEqual([true, true]);
    await applyFromOutside(between, async () => undefined);

    const store = await openStore(url, secrets);
    try {
      expect(store.migrationsApplied).toEqual(names.slice(1));
    } finally {
      await store.close();
    }
  });

  it('with a contract migration it does not know: this release refuses it in one line naming it', async () => {
    await (await openStore(url, secrets)).close();
    await applyFromOutside('0003_expand_next_release', expand);
    await applyFromOutside('0004_contract_drop_label', async () => undefined);
    const refusal = await refusalOf(openStore(url, secrets));
    expect(refusal).toBeInstanceOf(MigrationRefusal);
    const line = describeFailure(refusal);
    expect(line).toBe(
      'The database holds migration 0004_contract_drop_label, a contract migration this release does not know: it removes or changes what this release reads. Run the release that applied it, or a later one.',
    );
  });
});

describe('a release started without migrating (MIGRATE_ON_START=false)', () => {
  it('refuses a database that lacks its migrations, naming them, and applies nothing', async () => {
    const refusal = await refusalOf(openStore(url, secrets, { migrate: false }));
    expect(describeFailure(refusal)).toBe(
      'The database lacks migration 0001_initial, 0002_external_user_broadcast_regions, 0003_expand_data_moves of this release, and MIGRATE_ON_START is false: run `npm run migrate` (or `node dist/server/cli.js migrate`) first.',
    );
    const migrated = await openStore(url, secrets);
    expect(migrated.migrationsApplied).toEqual(Object.keys(await releaseMigrations()));
    await migrated.close();
  });

  it('starts on a database already migrated', async () => {
    await (await openStore(url, secrets)).close();
    const store = await openStore(url, secrets, { migrate: false });
    expect(store.migrationsApplied).toEqual([]);
    await store.ping();
    await store.close();
  });
});
