// A PATCH on PostgreSQL writes optimistically: it reads the destination, then updates it only over
// the revision it read, in two round trips and without a transaction or a held lock. A write that
// loses the race to another writer is done again under the row's lock, so no update is lost; and
// for LOCK_FIRST_AFTER_CONFLICT_MS after such a conflict, PATCHes take the lock first.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { LOCK_FIRST_AFTER_CONFLICT_MS } from '../../server/store/postgres.js';
import { openStore, type Store } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase } from '../support/database.js';
import { readDestination } from '../support/destinations.js';
import { destinationTypes, provision } from '../support/server.js';

type Query = (...args: unknown[]) => unknown;
const clientQuery = pg.Client.prototype.query as Query;

/** Every statement sent to PostgreSQL by any client of this process, in order: one round trip each. */
const sent: string[] = [];
let beforeSending: ((text: string) => Promise<void>) | undefined;

function statementText(args: unknown[]): string {
  const first = args[0] as string | { text?: string };
  return (typeof first === 'string' ? first : (first.text ?? '')).trim().split(/\s+/).slice(0, 2).join(' ');
}

let database: TestDatabase;
let store: Store;
let workspaceId = '';
let destinationId = '';
const rulesOf = (type: Parameters<typeof destinationTypes.get>[0]) => {
  const rules = destinationTypes.get(type);
  if (!rules) throw new Error(`no rules for ${type}`);
  return rules;
};

beforeAll(async () => {
  database = await createPostgresDatabase();
  store = await openStore(database.url, createSecretBox(randomBytes(32)));
  const now = new Date();
  workspaceId = (await store.workspaces.create('Round trips', now)).id;
  destinationId = (
    await provision.createDestination(
      store,
      { workspaceId, type: 'webhook', name: 'start', config: { url: 'https://example.com/hook' } },
      now,
    )
  ).id;
  pg.Client.prototype.query = function countingQuery(this: pg.Client, ...args: unknown[]) {
    const text = statementText(args);
    sent.push(text);
    const hook = beforeSending;
    if (!hook) return clientQuery.apply(this, args);
    // Callback or promise, as the caller used it: the hook runs first either way.
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      void hook(text).then(() => clientQuery.apply(this, args));
      return undefined;
    }
    return hook(text).then(() => clientQuery.apply(this, args));
  } as typeof pg.Client.prototype.query;
}, 30_000);

afterEach(() => {
  sent.length = 0;
  beforeSending = undefined;
  vi.useRealTimers();
});

/** Past the time after a conflict during which PATCHes lock first. */
function afterTheContention() {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + LOCK_FIRST_AFTER_CONFLICT_MS + 1 });
}

afterAll(async () => {
  pg.Client.prototype.query = clientQuery as typeof pg.Client.prototype.query;
  await store?.close();
  await database?.drop();
});

const update = (changes: { name?: string; sampling_rate?: number }) =>
  store.destinations.update(workspaceId, destinationId, new Date(), { changes }, rulesOf);

// Steps in order on one store: how it writes depends on its last conflict, which a step before leaves.
describe('PATCH on PostgreSQL', { shuffle: false }, () => {
  it('writes in two round trips, a read and a conditional update, with no transaction', async () => {
    await update({ sampling_rate: 0.5 }); // the named statements are prepared on first use
    sent.length = 0;
    const outcome = await update({ sampling_rate: 0.25 });
    expect(outcome?.outcome).toBe('changed');
    expect(sent).toEqual(['select "id",', 'update "destinations"']);
  });

  it('takes one round trip when nothing changes', async () => {
    const outcome = await update({ sampling_rate: 0.25 });
    expect(outcome?.outcome).toBe('unchanged');
    expect(sent).toEqual(['select "id",']);
  });

  it('after losing a race to another writer, writes again under the row lock, and loses neither update', async () => {
    const before = await readDestination(store, workspaceId, destinationId);
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    sent.length = 0;
    let raced = false;
    beforeSending = async (text) => {
      if (raced || text !== 'update "destinations"') return;
      raced = true;
      // Another process renames the destination between this PATCH's read and its write.
      await clientQuery.call(other, 'UPDATE destinations SET name = $1, revision = revision + 1 WHERE id = $2', [
        'renamed elsewhere',
        destinationId,
      ]);
    };
    try {
      const outcome = await update({ sampling_rate: 0.75 });
      expect(sent).toEqual([
        'select "id",',
        'update "destinations"', // lost the race: no row returned
        'begin',
        'select "id",', // for update
        'update "destinations"',
        'commit',
      ]);
      expect(outcome?.destination.revision).toBe((before?.revision ?? 0) + 2);
      const after = await readDestination(store, workspaceId, destinationId);
      expect(after?.state).toMatchObject({ name: 'renamed elsewhere', sampling_rate: 0.75 });
    } finally {
      await other.end();
    }
  });

  it('locks first for a while after a conflict, then writes optimistically again', async () => {
    sent.length = 0;
    await update({ sampling_rate: 0.5 });
    expect(sent).toEqual(['begin', 'select "id",', 'update "destinations"', 'commit']);
    afterTheContention();
    sent.length = 0;
    await update({ sampling_rate: 0.25 });
    expect(sent).toEqual(['select "id",', 'update "destinations"']);
  });

  it('ends under the lock however busy the row is: one optimistic attempt at most', async () => {
    afterTheContention();
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    sent.length = 0;
    let conflicts = 0;
    beforeSending = async (text) => {
      // Every optimistic write loses; the write inside the locking transaction is let through.
      if (text !== 'update "destinations"' || sent.includes('begin')) return;
      conflicts += 1;
      await clientQuery.call(other, 'UPDATE destinations SET revision = revision + 1 WHERE id = $1', [destinationId]);
    };
    try {
      const outcome = await update({ sampling_rate: 0.125 });
      expect(outcome?.outcome).toBe('changed');
      expect(conflicts).toBe(1);
      expect(sent.slice(-4)).toEqual(['begin', 'select "id",', 'update "destinations"', 'commit']);
      expect((await readDestination(store, workspaceId, destinationId))?.state.sampling_rate).toBe(0.125);
    } finally {
      await other.end();
    }
  });
});

describe('PATCH on PostgreSQL with rowWrites lock-first (what the benchmark compares)', () => {
  it('takes the row lock first on every write, with no conflict before', async () => {
    const lockFirst = await openStore(database.url, createSecretBox(randomBytes(32)), { rowWrites: 'lock-first' });
    try {
      const now = new Date();
      const { id } = await provision.createDestination(
        lockFirst,
        { workspaceId, type: 'webhook', name: 'locked first', config: { url: 'https://example.com/hook' } },
        now,
      );
      afterTheContention();
      for (const sampling_rate of [0.5, 0.25]) {
        sent.length = 0;
        const outcome = await lockFirst.destinations.update(
          workspaceId,
          id,
          now,
          { changes: { sampling_rate } },
          rulesOf,
        );
        expect(outcome?.outcome).toBe('changed');
        expect(sent).toEqual(['begin', 'select "id",', 'update "destinations"', 'commit']);
      }
    } finally {
      await lockFirst.close();
    }
  });
});
