// Queries compiled once: what building one may do with its arguments (nothing but put them in the
// SQL, checked at preparation), and, on SQLite, running straight on the driver beside Kysely on the
// same connection, never inside a transaction Kysely has open, nor seeing what it has not committed.
import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
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
import { migrateToLatest } from '../../server/store/migrate.js';
import { argument, preparedQuery } from '../../server/store/prepared.js';
import { createStore, type Store } from '../../server/store/store.js';
import type { Database } from '../../server/store/tables.js';

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

/**
 * A few turns of the event loop: the embedded database answers synchronously, so a statement that
 * did not wait has settled by then; one that waits stays pending, however long it is given.
 */
async function turnsOfTheEventLoop(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await nextTurn();
}

describe('queries compiled once', () => {
  it('put each call’s arguments where the arguments were, constants left as written', async () => {
    const key = await store.keys.create(newKey('a'.repeat(64)), new Date());
    const byKind = preparedQuery(opened.driver, 'test', { kind: argument<KeyKind>(), id: argument<string>() }, (a) =>
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

  it('put an argument used twice in both places', async () => {
    const twice = preparedQuery(opened.driver, 'twice', { name: argument<string>() }, (a) =>
      opened.db.selectFrom('workspaces').select('id').where('name', '=', a.name).where('name', '<>', a.name),
    );
    expect(twice.bind({ name: 'W' }).parameters).toEqual(['W', 'W']);
  });

  it('wait for a transaction Kysely has open, and never see what it rolls back', async () => {
    const hash = 'b'.repeat(64);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let transactionOpen: () => void = () => undefined;
    const isOpen = new Promise<void>((resolve) => (transactionOpen = resolve));
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
        transactionOpen();
        await held;
        throw new Error('rolled back');
      })
      .catch((err: Error) => err.message);
    await isOpen;

    let read: unknown = 'pending';
    const reading = store.keys.findByHash(hash).then((row) => (read = row));
    await turnsOfTheEventLoop();
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
    let transactionOpen: () => void = () => undefined;
    const isOpen = new Promise<void>((resolve) => (transactionOpen = resolve));
    const transaction = opened.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable('destinations')
          .set({ name: 'never committed' })
          .where('id', '=', destination.id)
          .execute();
        transactionOpen();
        await held;
        throw new Error('rolled back');
      })
      .catch((err: Error) => err.message);
    await isOpen;

    let done = false;
    const rulesOf = (type: DestinationType) => configRulesOf(loadDestinationTypeRules(loadSpec()), type);
    const updating = store.destinations
      .update(workspaceId, destination.id, new Date(), { changes: { sampling_rate: 0.5 } }, rulesOf)
      .finally(() => (done = true));
    await turnsOfTheEventLoop();
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

/** Kysely compiling for PostgreSQL, without a connection: preparing a query only compiles it. */
const postgresCompiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe.each([
  ['SQLite', () => opened.db],
  ['PostgreSQL', () => postgresCompiler],
])('preparing a query for %s', (_dialect, db) => {
  const workspaces = () => db().selectFrom('workspaces').select('id');

  it('refuses a build that branches on an argument, which has no value yet', () => {
    expect(() =>
      preparedQuery(
        opened.driver,
        'workspaces.maybeNamed',
        { name: argument<string>(), filtered: argument<boolean>() },
        (a) => (a.filtered ? workspaces().where('name', '=', a.name) : workspaces()),
      ),
    ).toThrow('workspaces.maybeNamed: argument filtered is no parameter of the compiled SQL');
  });

  it('refuses an argument declared and never used', () => {
    expect(() =>
      preparedQuery(opened.driver, 'workspaces.byId', { id: argument<string>(), name: argument<string>() }, (a) =>
        workspaces().where('id', '=', a.id),
      ),
    ).toThrow('workspaces.byId: argument name is no parameter of the compiled SQL');
    expect(() =>
      preparedQuery(
        opened.driver,
        'workspaces.byIdOnly',
        { id: argument<string>(), name: argument<string>(), slug: argument<string>() },
        (a) => workspaces().where('id', '=', a.id),
      ),
    ).toThrow('workspaces.byIdOnly: argument name, slug is no parameter of the compiled SQL');
  });

  it('refuses an argument turned into a string or a number, naming the query and the argument', () => {
    expect(() =>
      preparedQuery(opened.driver, 'workspaces.prefixed', { prefix: argument<string>() }, (a) =>
        workspaces().where('name', 'like', `${a.prefix}%`),
      ),
    ).toThrow('workspaces.prefixed: argument prefix is used as a value while the query is built');
    expect(() =>
      preparedQuery(opened.driver, 'workspaces.page', { limit: argument<number>() }, (a) =>
        // @ts-expect-error: an argument is an expression, not a number to compare
        workspaces().limit(a.limit > 100 ? 100 : a.limit),
      ),
    ).toThrow('workspaces.page: argument limit is used as a value while the query is built');
    expect(() =>
      preparedQuery(opened.driver, 'workspaces.json', { name: argument<string>() }, (a) =>
        workspaces().where('name', '=', JSON.stringify({ name: a.name })),
      ),
    ).toThrow('workspaces.json: argument name is used as a value while the query is built');
  });

  it('refuses an argument inside a value, or one of another query', () => {
    expect(() =>
      preparedQuery(opened.driver, 'workspaces.inList', { id: argument<string>() }, (a) =>
        workspaces().where('id', '=', sql<string>`${sql.val([a.id])}`),
      ),
    ).toThrow('workspaces.inList: a parameter holds an argument inside a value');
    expect(() =>
      preparedQuery(opened.driver, 'workspaces.inLongerList', { id: argument<string>() }, (a) =>
        workspaces().where('id', '=', sql<string>`${sql.val(['a constant', a.id])}`),
      ),
    ).toThrow('workspaces.inLongerList: a parameter holds an argument inside a value');
    let borrowed: unknown;
    preparedQuery(opened.driver, 'workspaces.first', { id: argument<string>() }, (a) => {
      borrowed = a.id;
      return workspaces().where('id', '=', a.id);
    });
    expect(() =>
      preparedQuery(opened.driver, 'workspaces.second', { id: argument<string>() }, (a) =>
        workspaces()
          .where('id', '=', a.id)
          .where('name', '=', borrowed as typeof a.id),
      ),
    ).toThrow("workspaces.second: a parameter holds an argument inside a value, or another query's");
  });
});
