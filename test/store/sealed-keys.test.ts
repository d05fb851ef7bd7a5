// The key ids the stored secrets are sealed under, read in one grouped query, and which of them the
// store's keys open: what a start checks its keys with (server/secrets-check.ts).
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox, secretsKeyId } from '../../server/domain/secrets.js';
import { openDatabase, parseDatabaseUrl } from '../../server/store/database.js';
import { openStore, type Store } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase, testDatabaseKind } from '../support/database.js';

const opened: Store[] = [];
let postgres: TestDatabase | undefined;

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  await postgres?.drop();
  postgres = undefined;
});

async function databaseUrl(): Promise<string> {
  if (testDatabaseKind === 'postgres') {
    postgres = await createPostgresDatabase();
    return postgres.url;
  }
  return `sqlite:${join(mkdtempSync(join(tmpdir(), 'sealed-keys-')), 'api.db')}`;
}

async function storeOf(url: string, current: Buffer, previous: Buffer[] = []): Promise<Store> {
  const store = await openStore(url, createSecretBox(current, previous));
  opened.push(store);
  return store;
}

/** `count` destinations of a new workspace, their configs sealed under the store's current key. */
async function destinations(store: Store, count: number): Promise<void> {
  const workspace = await store.workspaces.create('Sealed', new Date());
  for (let i = 0; i < count; i++) {
    await store.destinations.create(
      { workspace_id: workspace.id, type: 'webhook', name: `d${i}`, config: { url: `https://example.com/${i}` } },
      new Date(),
    );
  }
}

const [keyA, keyB, keyC] = [randomBytes(32), randomBytes(32), randomBytes(32)];
const [idA, idB] = [secretsKeyId(keyA), secretsKeyId(keyB)];
const sorted = (...ids: string[]) => [...ids].sort();

describe('the sealed keys of a database', () => {
  it('are none for an empty database, whatever the keys', async () => {
    const store = await storeOf(await databaseUrl(), keyA);
    expect(await store.sealedKeys()).toEqual({ sealedUnder: [], unopened: [] });
  });

  it('are the key id of every row, each once, all opened by the key that sealed them', async () => {
    const store = await storeOf(await databaseUrl(), keyA);
    await destinations(store, 3);
    expect(await store.sealedKeys()).toEqual({ sealedUnder: [idA], unopened: [] });
  });

  it('name the key ids that the keys given do not open', async () => {
    const url = await databaseUrl();
    await destinations(await storeOf(url, keyA), 2);
    await destinations(await storeOf(url, keyB), 1);
    expect(await (await storeOf(url, keyC)).sealedKeys()).toEqual({
      sealedUnder: sorted(idA, idB),
      unopened: sorted(idA, idB),
    });
    expect(await (await storeOf(url, keyB)).sealedKeys()).toEqual({ sealedUnder: sorted(idA, idB), unopened: [idA] });
    // A previous key opens what it sealed.
    expect(await (await storeOf(url, keyC, [keyA, keyB])).sealedKeys()).toEqual({
      sealedUnder: sorted(idA, idB),
      unopened: [],
    });
  });

  it('take a value under a key given that does not open with it (altered since) as not opened', async () => {
    const url = await databaseUrl();
    await destinations(await storeOf(url, keyA), 1);
    // The same key id, the ciphertext of another key: what an altered value looks like.
    const altered = createSecretBox(keyB).seal('{}').replace(`.${idB}.`, `.${idA}.`);
    const { db } = await openDatabase(parseDatabaseUrl(url));
    await db.updateTable('destinations').set({ config_sealed: altered }).execute();
    await db.destroy();
    expect(await (await storeOf(url, keyA)).sealedKeys()).toEqual({ sealedUnder: [idA], unopened: [idA] });
  });
});
