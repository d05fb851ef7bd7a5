// What a process keeps of what it read: a key's credentials for at most KEY_CREDENTIALS_TTL_MS, so
// that a key disabled elsewhere (the CLI, another instance) is refused by every process within it;
// and a page of versions for as long as its preset has the same versions. Two stores on one
// database are two processes. Neither keeps anything for a hash or a page that matches nothing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { KEY_CREDENTIALS_TTL_MS } from '../../server/store/keys.js';
import type { QueryDriver } from '../../server/store/prepared.js';
import { PAGES_HELD, PAGES_HELD_CHARACTERS } from '../../server/store/presets.js';
import { openStore, type Store } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase, testDatabaseKind } from '../support/database.js';
import { provision } from '../support/server.js';

/** The statements a store ran, by name. */
const ran = new Map<string, number>();
const runsOf = (name: string) => ran.get(name) ?? 0;
const counting = (driver: QueryDriver): QueryDriver => ({
  run: (query) => {
    ran.set(query.name, runsOf(query.name) + 1);
    return driver.run(query);
  },
  readModifyWrite: (read, decide) => driver.readModifyWrite(read, decide),
});

let postgres: TestDatabase | undefined;
let serving: Store;
let elsewhere: Store;
let workspaceId = '';

beforeAll(async () => {
  if (testDatabaseKind === 'postgres') postgres = await createPostgresDatabase();
  const url = postgres?.url ?? `sqlite:${join(mkdtempSync(join(tmpdir(), 'read-once-')), 'api.db')}`;
  const secrets = createSecretBox(randomBytes(32));
  serving = await openStore(url, secrets, { wrapDriver: counting });
  elsewhere = await openStore(url, secrets);
  workspaceId = (await elsewhere.workspaces.create('Read once', new Date())).id;
}, 30_000);

afterAll(async () => {
  await serving?.close();
  await elsewhere?.close();
  await postgres?.drop();
});

const newKey = (name: string) => provision.createKey(elsewhere, { workspaceId, name, kind: 'management' }, new Date());

describe("a key's credentials", () => {
  it('are read from the database once within the time they are held', async () => {
    const { hash } = await newKey('Held');
    const before = runsOf('keys.byHash');
    for (let i = 0; i < 5; i++) expect((await serving.keys.findByHash(hash))?.disabled).toBe(false);
    expect(runsOf('keys.byHash') - before).toBe(1);
  });

  it('are refused by a process within the time they are held, once disabled by another', async () => {
    const { hash } = await newKey('Disabled elsewhere');
    expect((await serving.keys.findByHash(hash))?.disabled).toBe(false);
    await elsewhere.keys.setDisabled(hash, true, new Date());
    const disabledAt = performance.now();
    while (!(await serving.keys.findByHash(hash))?.disabled) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(performance.now() - disabledAt).toBeLessThanOrEqual(KEY_CREDENTIALS_TTL_MS + 100);
  });

  it('are read again at once after a change made through the same store', async () => {
    const { hash } = await newKey('Disabled here');
    expect((await serving.keys.findByHash(hash))?.disabled).toBe(false);
    await serving.keys.setDisabled(hash, true, new Date());
    expect((await serving.keys.findByHash(hash))?.disabled).toBe(true);
  });

  it('are not kept for a hash of no key: each lookup of one reads the database', async () => {
    const unknown = randomBytes(32).toString('hex');
    const before = runsOf('keys.byHash');
    for (let i = 0; i < 3; i++) expect(await serving.keys.findByHash(unknown)).toBeUndefined();
    expect(runsOf('keys.byHash') - before).toBe(3);
  });
});

describe('a page of versions', () => {
  // Each test that counts the pages read has a preset of its own: what another test asked for, in
  // whatever order the tests run, is then not held for it.
  const slug = 'paged';
  const grown = 'grown';
  const bounded = 'bounded';
  const addVersion = (slugOf: string, i: number) =>
    provision.addPresetVersion(
      elsewhere,
      {
        workspaceId,
        slug: slugOf,
        config: { model: 'openai/gpt-4o-mini' },
        systemPrompt: `Version ${i}`,
        creatorId: 'u',
      },
      new Date(),
    );

  beforeAll(async () => {
    for (let i = 1; i <= 5; i++) await addVersion(slug, i);
    for (let i = 1; i <= 5; i++) await addVersion(grown, i);
    for (let i = 1; i <= 6; i++) await addVersion(bounded, i);
  });

  it('is made once, and answered again for the cost of reading its preset', async () => {
    const pagesBefore = runsOf('presets.page');
    const first = await serving.presets.pageOfVersions(workspaceId, slug, 0, 3);
    const again = await serving.presets.pageOfVersions(workspaceId, slug, 0, 3);
    expect(again).toEqual(first);
    expect(JSON.parse(first?.versionsJson ?? '').map((v: { version: number }) => v.version)).toEqual([1, 2, 3]);
    expect(runsOf('presets.page') - pagesBefore).toBe(1);
  });

  it('is made anew once the preset has another version, by any process', async () => {
    const before = await serving.presets.pageOfVersions(workspaceId, grown, 3, 10);
    expect(before?.totalCount).toBe(5);
    expect(JSON.parse(before?.versionsJson ?? '')).toHaveLength(2);
    await addVersion(grown, 6);
    const after = await serving.presets.pageOfVersions(workspaceId, grown, 3, 10);
    expect(after?.totalCount).toBe(6);
    expect(JSON.parse(after?.versionsJson ?? '').map((v: { version: number }) => v.version)).toEqual([4, 5, 6]);
  });

  it('past the end is not kept', async () => {
    const pagesBefore = runsOf('presets.page');
    for (let i = 0; i < 3; i++)
      expect((await serving.presets.pageOfVersions(workspaceId, slug, 100, 10))?.versionsJson).toBe('[]');
    expect(runsOf('presets.page') - pagesBefore).toBe(3);
  });

  it('of a slug of no preset reads no page', async () => {
    const pagesBefore = runsOf('presets.page');
    expect(await serving.presets.pageOfVersions(workspaceId, 'absent', 0, 10)).toBeUndefined();
    expect(runsOf('presets.page')).toBe(pagesBefore);
  });

  it('is one of a bounded number held: pages a client asks for in turn push the oldest out', async () => {
    const oldest = () => serving.presets.pageOfVersions(workspaceId, bounded, 0, 1);
    await oldest();
    // Every (offset, limit) within the preset's versions is a page of its own.
    let asked = 0;
    for (let limit = 1; asked < PAGES_HELD; limit++)
      for (let offset = 0; offset < 6 && asked < PAGES_HELD; offset++, asked++)
        await serving.presets.pageOfVersions(workspaceId, bounded, offset, limit + 1);
    const pagesBefore = runsOf('presets.page');
    await oldest();
    expect(runsOf('presets.page') - pagesBefore).toBe(1);
  }, 60_000);

  it('is held while the characters of the pages held, with their keys, stay within PAGES_HELD_CHARACTERS', async () => {
    const add = (slugOf: string, promptLength: number) =>
      elsewhere.presets.addVersion(
        workspaceId,
        slugOf,
        { config: {}, system_prompt: 'x'.repeat(promptLength), creator_id: 'u' },
        new Date(),
      );
    await add('measured', 1);
    const measured = (await serving.presets.pageOfVersions(workspaceId, 'measured', 0, 1))?.versionsJson ?? '';
    // Four one-version pages, each of a quarter of the bound less 20 characters: with their keys of
    // 50 characters (a UUID, four figures, four spaces) the four are 120 over, without them 80 under.
    const pageLength = PAGES_HELD_CHARACTERS / 4 - 20;
    for (let i = 0; i < 4; i++) await add('large', pageLength - measured.length + 1);
    const page = (offset: number) => serving.presets.pageOfVersions(workspaceId, 'large', offset, 1);
    expect((await page(0))?.versionsJson).toHaveLength(pageLength);
    for (const offset of [1, 2, 3]) await page(offset);
    const pagesBefore = runsOf('presets.page');
    await page(3);
    expect(runsOf('presets.page') - pagesBefore).toBe(0);
    await page(0);
    expect(runsOf('presets.page') - pagesBefore).toBe(1);
  }, 60_000);
});
