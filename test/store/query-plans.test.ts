// Reading a key's usage and a page of versions must cost the same whatever the amount of data:
// both are index range reads. Speed itself is measured in the benchmark; this checks the plans.
import { randomBytes } from 'node:crypto';
import { CompiledQuery, type Kysely, type LogEvent } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { usageWindows } from '../../server/domain/time.js';
import { openDatabase } from '../../server/store/database.js';
import { migrateToLatest } from '../../server/store/migrate.js';
import { createStore, type Store } from '../../server/store/store.js';
import type { Database } from '../../server/store/tables.js';

let db: Kysely<Database>;
let store: Store;
const queries: CompiledQuery[] = [];

beforeAll(async () => {
  const opened = await openDatabase(
    { kind: 'sqlite', filename: ':memory:' },
    { log: (event: LogEvent) => void queries.push(event.query) },
  );
  db = opened.db;
  await migrateToLatest(db);
  store = createStore(opened, createSecretBox(randomBytes(32)));
});

afterAll(async () => {
  await store.close();
});

/** The plan of the first select that `run` ran, or of the first one that reads `table`. */
async function planOf(run: () => Promise<unknown>, table?: string): Promise<string> {
  queries.length = 0;
  await run();
  const [query] = queries.filter(
    (q) => /^select/i.test(q.sql) && (table === undefined || q.sql.includes(`"${table}"`)),
  );
  if (!query) throw new Error('no select ran');
  const result = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
  );
  return result.rows.map((row) => row.detail).join('\n');
}

describe('query plans', () => {
  it('reads a key by its hash and its usage windows by a range of the usage primary key, never a scan', async () => {
    const plan = await planOf(() =>
      store.keys.findInWorkspaceWithUsage(
        'workspace-id',
        '0'.repeat(64),
        usageWindows(new Date('2026-11-18T12:00:00Z')),
      ),
    );
    expect(plan).toMatch(/SEARCH k USING INDEX \S+ \(hash=\?\)/);
    expect(plan).toMatch(/SEARCH u USING (PRIMARY KEY|INDEX \S+) \(key_id=\? AND day>\? AND day<\?\)/);
    expect(plan).not.toMatch(/SCAN/);
  });

  it('reads a page of versions by a seek on (preset_id, version), whatever the offset', async () => {
    // A preset to read: the page is read only once its preset is found.
    const workspace = await store.workspaces.create('Plans', new Date());
    await store.presets.addVersion(
      workspace.id,
      'slug',
      { config: {}, system_prompt: null, creator_id: 'u' },
      new Date(),
    );
    const plan = await planOf(
      () => store.presets.pageOfVersions(workspace.id, 'slug', 999_900, 100),
      'preset_versions',
    );
    expect(plan).toMatch(/SEARCH preset_versions USING INDEX \S+ \(preset_id=\? AND version>\?\)/);
    // The page's own rows (at most a page) are scanned and put in order for its JSON array, never a table.
    expect(plan).not.toMatch(/SCAN (preset_versions|presets)\b/);
    expect(plan.match(/TEMP B-TREE.*/g)).toEqual(['TEMP B-TREE FOR group_concat(ORDER BY)']);
  });

  it('finds a key by its hash through the unique index', async () => {
    const plan = await planOf(() => store.keys.findByHash('0'.repeat(64)));
    expect(plan).toMatch(/SEARCH api_keys USING INDEX \S+ \(hash=\?\)/);
  });
});

describe('preset versions', () => {
  it('are numbered 1..n with no gap, and total_count is kept without counting rows', async () => {
    const workspace = await store.workspaces.create('W', new Date());
    for (let i = 0; i < 5; i++) {
      await store.presets.addVersion(
        workspace.id,
        'p',
        { config: {}, system_prompt: null, creator_id: 'u' },
        new Date(),
      );
    }
    const preset = await store.presets.findBySlug(workspace.id, 'p');
    expect(preset?.version_count).toBe(5);
    const page = await store.presets.pageOfVersions(workspace.id, 'p', 3, 10);
    const versions = JSON.parse(page?.versionsJson ?? '[]') as { version: number }[];
    expect(versions.map((v) => v.version)).toEqual([4, 5]);
  });
});
