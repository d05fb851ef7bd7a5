// The page of versions is JSON text made by the database (store/presets.ts). Held here against the
// answer the server gave before it did so: the rows read one by one, each config parsed, the page
// cut by PAGE_CHARACTER_BUDGET in JavaScript and stringified. Equal JSON values, and equal bytes,
// on SQLite and PostgreSQL, for every shape a version takes.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONFIG_JSON_LENGTH, type PresetVersion } from '../../server/domain/preset-versions.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { openDatabase, parseDatabaseUrl } from '../../server/store/database.js';
import { migrateToLatest } from '../../server/store/migrate.js';
import { createStore, type Store } from '../../server/store/store.js';
import type { Database } from '../../server/store/tables.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let database: TestDatabase;
let db: Kysely<Database>;
let store: Store;
let workspaceId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const location = parseDatabaseUrl(database.url);
  const opened = await openDatabase(location);
  db = opened.db;
  await migrateToLatest(db);
  store = createStore(opened, createSecretBox(randomBytes(32)), location.kind);
  workspaceId = (await store.workspaces.create('Pages', new Date('2026-11-27T00:00:00Z'))).id;
});

afterAll(async () => {
  await store.close();
  await database.drop();
});

/** The page as it was answered before: every row read and parsed, then cut by the budget in JavaScript. */
async function formerPage(slug: string, offset: number, limit: number, budget: number) {
  const rows = await db
    .selectFrom('preset_versions as v')
    .innerJoin('presets as p', 'p.id', 'v.preset_id')
    .select([
      'v.id',
      'v.preset_id',
      'v.version',
      'v.config',
      'v.system_prompt',
      'v.creator_id',
      'v.created_at',
      'v.updated_at',
    ])
    .where('p.workspace_id', '=', workspaceId)
    .where('p.slug', '=', slug)
    .orderBy('v.version')
    .execute();
  const candidates = rows.filter((row) => row.version > offset).slice(0, limit);
  const page: PresetVersion[] = [];
  let before = 0;
  for (const row of candidates) {
    if (before >= budget) break;
    // Characters, as openapi.yaml counts them: code points, not UTF-16 units.
    before += [...row.config].length + [...(row.system_prompt ?? '')].length;
    page.push({ ...row, config: JSON.parse(row.config) as PresetVersion['config'] });
  }
  return { data: page, total_count: rows.length };
}

async function pageText(slug: string, offset: number, limit: number, budget: number) {
  const page = await store.presets.pageOfVersions(workspaceId, slug, offset, limit, { budget });
  if (!page) throw new Error(`no preset ${slug}`);
  return `{"data":${page.versionsJson},"total_count":${page.totalCount}}`;
}

async function addVersions(
  slug: string,
  versions: { config: PresetVersion['config']; system_prompt: string | null }[],
) {
  let at = Date.parse('2026-11-27T08:00:00Z');
  for (const version of versions) {
    at += 1000;
    await store.presets.addVersion(workspaceId, slug, { ...version, creator_id: 'user_1' }, new Date(at));
  }
}

const UNICODE_TEXTS = [
  'Grüße, 你好, مرحبا, 🧪🚀 and a combining é',
  'quotes " and \\ backslashes, / slashes',
  'control characters \u0001\u0008\t\n\f\r\u001f and \u007f',
  'line and paragraph separators \u2028 \u2029, a BOM \ufeff',
];

describe('the page of versions made by the database', () => {
  it('equals the former answer for a null prompt, Unicode, numbers and nested configs', async () => {
    await addVersions('shapes', [
      { config: {}, system_prompt: null },
      ...UNICODE_TEXTS.map((text, i) => ({ config: { model: `x/${text}`, [text]: [text, i] }, system_prompt: text })),
      {
        config: {
          temperature: 0.1,
          seed: -0,
          big: 12345678901234567000,
          tiny: 5e-324,
          exp: 1e21,
          flags: [true, false, null],
        },
        system_prompt: '',
      },
      { config: { deep: { a: [{ b: { c: [[], {}, ''] } }] } }, system_prompt: 'x'.repeat(10) },
    ]);
    for (const [offset, limit] of [
      [0, 100],
      [0, 1],
      [2, 3],
      [7, 10],
      [100, 10],
    ] as const) {
      const expected = await formerPage('shapes', offset, limit, 1_000_000);
      const text = await pageText('shapes', offset, limit, 1_000_000);
      expect(JSON.parse(text), `offset ${offset}, limit ${limit}`).toEqual(expected);
      expect(text).toBe(JSON.stringify(expected));
    }
  });

  it('equals the former answer for a config of the largest size', async () => {
    const filler = 'é'.repeat(MAX_CONFIG_JSON_LENGTH - 20);
    const config = { model: filler.slice(0, MAX_CONFIG_JSON_LENGTH - 30) };
    expect(JSON.stringify(config).length).toBeLessThanOrEqual(MAX_CONFIG_JSON_LENGTH);
    await addVersions('large', [
      { config, system_prompt: null },
      { config, system_prompt: '🧪'.repeat(1000) },
    ]);
    const text = await pageText('large', 0, 10, 1_000_000);
    expect(text).toBe(JSON.stringify(await formerPage('large', 0, 10, 1_000_000)));
  });

  it('ends where the former answer ended, on each side of the budget’s edge', async () => {
    // Each version counts 10 characters: a config of 8 ({"a":""} is 8) plus a prompt of 2.
    await addVersions(
      'edge',
      Array.from({ length: 6 }, () => ({ config: { a: '' }, system_prompt: 'ab' })),
    );
    for (const budget of [1, 9, 10, 11, 19, 20, 21, 59, 60, 61]) {
      const expected = await formerPage('edge', 0, 100, budget);
      const text = await pageText('edge', 0, 100, budget);
      expect(text, `budget ${budget}`).toBe(JSON.stringify(expected));
      expect(expected.data.length).toBe(Math.min(6, Math.ceil(budget / 10)));
    }
    // Its first version is on the page whatever its size, from any offset.
    expect(JSON.parse(await pageText('edge', 4, 100, 1)).data.map((v: PresetVersion) => v.version)).toEqual([5]);
  });

  it('is no page at all for a slug the workspace has not', async () => {
    expect(await store.presets.pageOfVersions(workspaceId, 'none', 0, 10)).toBeUndefined();
  });
});
