// Queries compiled once run straight on the SQLite driver, beside Kysely on the same connection.
// They must never run inside a transaction Kysely has open, nor see what it has not committed.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyKind } from '../../server/domain/api-keys.js';
import {
  configRulesOf,
  type DestinationType,
  loadDestinationTypeRules,
} from '../../server/domain/destination-config-rules.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { loadSpec } from '../../server/spec.js';
import { type OpenedDatabase, openDatabase } from '../../server/store/database.js';
import { createStore, type Store } from '../../server/store/index.js';
import { migrateToLatest } from '../../server/store/migrations.js';
import { preparedQuery } from '../../server/store/prepared.js';

let opened: OpenedDatabase;
let store: Store;
let workspaceId: string;

beforeAll(async () => {
  opened = await openDatabase({ kind: 'sqlite', filename: ':memory:' });
  await migrateToLatest(opened.db);
  store = createStore(opened, createSecretBox(randomBytes(32)));
  workspaceId = (await store.workspaces.create('W', new Date())).id;
});

afterAll(async () => {
  await store.close();
});

const newKey = (hash: string) => ({
  workspace_id: workspaceId,
  hash,
  label: 'sk-...0000',
  name: 'K',
  kind: 'standard' as const,
  disabled: false,
  include_byok_in_limit: false,
});

describe('queries compiled once', () => {
  it('put each call’s arguments where the stand-ins were, constants left as written', async () => {
    const key = await store.keys.create(newKey('a'.repeat(64)), new Date());
    const byKind = preparedQuery(opened.driver, 'test', (a: { kind: KeyKind; id: string }) =>
      opened.db
        .selectFrom('api_keys')
        .select(['id', 'kind'])
        .where('kind', '=', a.kind)
        .where('id', '=', a.id)
        .where('disabled', '=', false),
    );
    expect(byKind.bind({ kind: 'standard', id: key.id }).parameters).toEqual(['standard', key.id, 0]);
    expect(await byKind({ kind: 'standard', id: key.id })).toEqual([{ id: key.id, kind: 'standard' }]);
    expect(await byKind({ kind: 'management', id: key.id })).toEqual([]);
  });

  it('wait for a transaction Kysely has open, and never see what it rolls back', async () => {
    const hash = 'b'.repeat(64);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = opened.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('api_keys')
          .values({
            id: 'uncommitted',
            ...newKey(hash),
            usage_total: 0,
            byok_usage_total: 0,
            created_at: new Date().toISOString(),
            updated_at: null,
          })
          .execute();
        await held;
        throw new Error('rolled back');
      })
      .catch((err: Error) => err.message);
    await sleep(10);

    let read: unknown = 'pending';
    const reading = store.keys.findByHash(hash).then((row) => (read = row));
    await sleep(20);
    expect(read).toBe('pending');

    release();
    expect(await transaction).toBe('rolled back');
    await reading;
    expect(read).toBeUndefined();
  });

  it('run a read-modify-write after a transaction Kysely has open, not inside it', async () => {
    const destination = await store.destinations.create(
      { workspace_id: workspaceId, type: 'webhook', name: 'D', config: { url: 'https://example.com/hook' } },
      new Date(),
    );
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = opened.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable('destinations')
          .set({ name: 'never committed' })
          .where('id', '=', destination.id)
          .execute();
        await held;
        throw new Error('rolled back');
      })
      .catch((err: Error) => err.message);
    await sleep(10);

    let done = false;
    const rulesOf = (type: DestinationType) => configRulesOf(loadDestinationTypeRules(loadSpec()), type);
    const updating = store.destinations
      .update(workspaceId, destination.id, new Date(), { changes: { sampling_rate: 0.5 } }, rulesOf)
      .finally(() => (done = true));
    await sleep(20);
    expect(done).toBe(false);

    release();
    expect(await transaction).toBe('rolled back');
    const updated = await updating;
    // It read the committed row, not the one the open transaction had changed.
    expect(updated?.destination.state.name).toBe('D');
    expect(updated?.destination.state.sampling_rate).toBe(0.5);
    expect(updated?.destination.revision).toBe(destination.revision + 1);
  });
});
