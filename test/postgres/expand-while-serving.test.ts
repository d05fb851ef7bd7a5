// This release, serving under load while another process applies an expand migration it does not
// know (a column added to each table, an index, the migration recorded), answers no 5xx: its named
// statements select named columns, so no result changes shape under them. It then starts again on
// that database.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { openStore } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase } from '../support/database.js';
import {
  call,
  createTestDestination,
  createWorkspace,
  provision,
  startTestServer,
  type TestServer,
  type Workspace,
} from '../support/server.js';

const TABLES = ['workspaces', 'api_keys', 'key_usage_daily', 'destinations', 'presets', 'preset_versions'];

let database: TestDatabase;
let server: TestServer;
let workspace: Workspace;
let destinationPath: string;

beforeAll(async () => {
  database = await createPostgresDatabase();
  server = await startTestServer({ databaseUrl: database.url });
  workspace = await createWorkspace(server.store, server.clock.now());
  destinationPath = await createTestDestination(server, workspace);
  for (let version = 1; version <= 3; version++)
    await provision.addPresetVersion(
      server.store,
      { workspaceId: workspace.id, slug: 'expand', config: { model: 'm/x' } as never, creatorId: 'u' },
      server.clock.now(),
    );
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

/** The next release's expand migration, as another process applies it: one statement at a time, as its migrator would. */
async function applyExpandMigration(): Promise<void> {
  const other = new pg.Client({ connectionString: database.url });
  await other.connect();
  try {
    for (const table of TABLES) {
      await other.query(`alter table ${table} add column added_by_next_release text`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await other.query('create index destinations_type_idx on destinations (type)');
    await other.query('insert into kysely_migration (name, timestamp) values ($1, $2)', [
      '0003_expand_next_release',
      new Date().toISOString(),
    ]);
  } finally {
    await other.end();
  }
}

describe('an expand migration applied by another process while this release serves', () => {
  it('fails no request, and this release starts again on the database', async () => {
    const statuses = new Map<number, number>();
    let stop = false;
    const requests = [
      () => call(server, 'GET', `/api/v1/keys/${workspace.standardKeyHash}`, { key: workspace.managementKey }),
      () => call(server, 'GET', '/api/v1/presets/expand/versions?limit=2', { key: workspace.standardKey }),
      (i: number) =>
        call(server, 'PATCH', destinationPath, {
          key: workspace.managementKey,
          body: { sampling_rate: (1 + (i % 99)) / 100 },
        }),
    ];
    const load = Promise.all(
      Array.from({ length: 6 }, async (_, client) => {
        for (let i = 0; !stop; i++) {
          const request = requests[(client + i) % requests.length];
          const response = await request?.(i);
          if (response) statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        }
      }),
    );
    // Every named statement prepared on every connection first, then the migration, then more load.
    await new Promise((resolve) => setTimeout(resolve, 700));
    await applyExpandMigration();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    stop = true;
    await load;

    expect([...statuses.keys()].sort()).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(100);
    expect(server.serverErrors()).toEqual([]);

    const restarted = await openStore(database.url, createSecretBox(randomBytes(32)));
    try {
      expect(restarted.migrationsApplied).toEqual([]);
      await restarted.ping();
    } finally {
      await restarted.close();
    }
  }, 30_000);
});
