// The embedded SQLite database as DATABASE_URL opens it: a file (its folders made, WAL mode,
// foreign keys on), what an opening that fails says, the query log, closing, and the queries
// compiled once that run straight on the connection.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LogEvent, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { DatabaseOpenError, type OpenedDatabase, openDatabase } from '../../server/store/database.js';
import { migrateToLatest } from '../../server/store/migrate.js';
import { argument, type BoundQuery, kyselyDriver, preparedQuery } from '../../server/store/prepared.js';
import { openSqliteConnection, sqliteCodeOf } from '../../server/store/sqlite-connection.js';
import { createStore, openStore } from '../../server/store/store.js';

const folder = mkdtempSync(join(tmpdir(), 'sqlite-database-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const secrets = createSecretBox(randomBytes(32));

async function migrated(options: Parameters<typeof openDatabase>[1] = {}): Promise<OpenedDatabase> {
  const opened = await openDatabase({ kind: 'sqlite', filename: ':memory:' }, options);
  await migrateToLatest(opened.db);
  return opened;
}

describe('a SQLite file', () => {
  it('is created with the folders it needs, and keeps what was written for the next opening', async () => {
    const file = join(folder, 'new', 'nested', 'api.db');
    const first = await openStore(`sqlite:${file}`, secrets);
    const workspace = await first.workspaces.create('Kept', new Date('2026-01-02T03:04:05.000Z'));
    await first.close();
    expect(existsSync(file)).toBe(true);

    const second = await openStore(`sqlite:${file}`, secrets);
    expect(await second.workspaces.list()).toEqual([workspace]);
    await second.close();
  });

  it('is in WAL mode, its log folded back into the file when the store closes', async () => {
    const file = join(folder, 'wal', 'api.db');
    const store = await openStore(`sqlite:${file}`, secrets);
    await store.workspaces.create('W', new Date());
    expect(existsSync(`${file}-wal`)).toBe(true);
    const other = await openSqliteConnection(file, { readonly: true });
    expect(other.prepare('PRAGMA journal_mode').all([])).toEqual([{ journal_mode: 'wal' }]);
    other.close();
    await store.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('commits with synchronous NORMAL, checks foreign keys, and waits 5 s for a lock held elsewhere', async () => {
    const opened = await openDatabase({ kind: 'sqlite', filename: join(folder, 'pragmas', 'api.db') });
    const pragma = async (name: string) => (await sql.raw(`PRAGMA ${name}`).execute(opened.db)).rows;
    expect(await pragma('synchronous')).toEqual([{ synchronous: 1 }]);
    expect(await pragma('foreign_keys')).toEqual([{ foreign_keys: 1 }]);
    // better-sqlite3 sets this timeout of its own; node:sqlite waits for nothing unless told.
    expect(await pragma('busy_timeout')).toEqual([{ timeout: 5000 }]);
    await opened.db.destroy();
  });

  it('refuses a key of a workspace that does not exist', async () => {
    const store = await openStore('sqlite::memory:', secrets);
    await expect(
      store.keys.create(
        {
          workspace_id: 'no-such-workspace',
          hash: 'f'.repeat(64),
          label: 'sk-...ffff',
          name: 'K',
          kind: 'standard',
          disabled: false,
          include_byok_in_limit: false,
        },
        new Date(),
      ),
    ).rejects.toThrow('FOREIGN KEY constraint failed');
    await store.close();
  });
});

describe('an opening that fails', () => {
  it('says that the folder of the file cannot be made, keeping the original error', async () => {
    const notAFolder = join(folder, 'plain-file');
    writeFileSync(notAFolder, '');
    const file = join(notAFolder, 'api.db');
    const opening = openStore(`sqlite:${file}`, secrets);
    await expect(opening).rejects.toThrow(
      new DatabaseOpenError(
        `SQLite database ${file}`,
        'the file cannot be created or opened (EEXIST); check that its folder can be written',
      ),
    );
    await expect(opening).rejects.toMatchObject({ cause: { code: 'EEXIST', syscall: 'mkdir' } });
  });

  it('says that a file that is not a SQLite database is not one', async () => {
    const file = join(folder, 'not-a-database.db');
    writeFileSync(file, 'This is a text file, not a database. '.repeat(40));
    const opening = openStore(`sqlite:${file}`, secrets);
    await expect(opening).rejects.toThrow(
      new DatabaseOpenError(`SQLite database ${file}`, 'the file is not a SQLite database'),
    );
    await expect(opening).rejects.toSatisfy((err) => sqliteCodeOf((err as Error).cause) === 'SQLITE_NOTADB');
  });

  it('passes on as it is an error of the schema update, and closes the file', async () => {
    const file = join(folder, 'foreign-schema.db');
    const foreign = await openSqliteConnection(file);
    foreign.exec('create table workspaces (something_else integer)');
    foreign.close();

    const opening = openStore(`sqlite:${file}`, secrets);
    await expect(opening).rejects.toMatchObject({ message: 'table "workspaces" already exists' });
    await expect(opening).rejects.toSatisfy((err) => sqliteCodeOf(err) === 'SQLITE_ERROR');
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('refuses a DATABASE_URL it does not know before opening anything', async () => {
    await expect(openStore('mysql://localhost/api', secrets)).rejects.toThrow(
      new Error('DATABASE_URL must start with sqlite: or postgres:// (got mysql:)'),
    );
  });
});

describe('a store', () => {
  it('answers a ping while open, and neither pings nor queries once closed', async () => {
    const store = await openStore('sqlite::memory:', secrets);
    await expect(store.ping()).resolves.toBeUndefined();
    await expect(store.close()).resolves.toBeUndefined();
    await expect(store.ping()).rejects.toThrow('driver has already been destroyed');
    await expect(store.workspaces.list()).rejects.toThrow('driver has already been destroyed');
    // better-sqlite3 and node:sqlite say it in their own words.
    await expect(store.keys.findByHash('a'.repeat(64))).rejects.toThrow(/connection is not open|database is not open/);
  });

  it('made over a database migrated before, says it applied no migration', async () => {
    const opened = await migrated();
    expect(createStore(opened, secrets).migrationsApplied).toEqual([]);
    await opened.db.destroy();
  });
});

describe('the query log', () => {
  it('has the queries built each time and those compiled once, with their parameters', async () => {
    const events: LogEvent[] = [];
    const opened = await migrated({ log: (event) => void events.push(event) });
    const store = createStore(opened, secrets);
    events.length = 0;
    const workspace = await store.workspaces.create('Logged', new Date('2026-01-02T03:04:05.000Z'));
    await store.keys.findByHash('c'.repeat(64));
    expect(events.map(({ level, query }) => ({ level, sql: query.sql, parameters: query.parameters }))).toEqual([
      {
        level: 'query',
        sql: 'insert into "workspaces" ("id", "name", "created_at") values (?, ?, ?)',
        parameters: [workspace.id, 'Logged', '2026-01-02T03:04:05.000Z'],
      },
      {
        level: 'query',
        sql: 'select "id", "workspace_id", "kind", "disabled", "expires_at" from "api_keys" where "hash" = ?',
        parameters: ['c'.repeat(64)],
      },
    ]);
    await store.close();
  });

  it('has the read and the write of a read-modify-write, in one transaction of the connection’s own', async () => {
    const events: LogEvent[] = [];
    const opened = await migrated({ log: (event) => void events.push(event) });
    const store = createStore(opened, secrets);
    const workspace = await store.workspaces.create('W', new Date());
    const rename = renameOnce(opened, workspace.id);
    events.length = 0;
    expect(await opened.driver.readModifyWrite(readName(opened, workspace.id), rename)).toBe('renamed');
    expect(events.map(({ query }) => query.sql)).toEqual([
      'select "name" from "workspaces" where "id" = ?',
      'update "workspaces" set "name" = ? where "id" = ? and "name" = ? returning "id"',
    ]);
    await store.close();
  });
});

/** Reads a workspace's name, both plain and locking (SQLite has no row locks). */
function readName(opened: OpenedDatabase, id: string) {
  const query = preparedQuery(opened.driver, 'test', { id: argument<string>() }, (a) =>
    opened.db.selectFrom('workspaces').select('name').where('id', '=', a.id),
  ).bind({ id });
  return { plain: query, locking: query, row: `workspaces/${id}` };
}

/** Decides to rename a workspace that has no " (renamed)" yet, over the name read. */
function renameOnce(opened: OpenedDatabase, id: string) {
  const write = preparedQuery(
    opened.driver,
    'test',
    { id: argument<string>(), name: argument<string>(), readName: argument<string>() },
    (a) =>
      opened.db
        .updateTable('workspaces')
        .set({ name: a.name })
        .where('id', '=', a.id)
        .where('name', '=', a.readName)
        .returning('id'),
  );
  return (row: { name: string } | undefined): { result: string; write?: BoundQuery } => {
    if (!row) return { result: 'missing' };
    if (row.name.endsWith(' (renamed)')) return { result: 'unchanged' };
    return { result: 'renamed', write: write.bind({ id, name: `${row.name} (renamed)`, readName: row.name }) };
  };
}

describe('queries compiled once, on SQLite', () => {
  it('run a write that returns no rows, answering with none', async () => {
    const opened = await migrated();
    const store = createStore(opened, secrets);
    const workspace = await store.workspaces.create('Before', new Date('2026-01-02T03:04:05.000Z'));
    const rename = preparedQuery(opened.driver, 'test', { id: argument<string>(), name: argument<string>() }, (a) =>
      opened.db.updateTable('workspaces').set({ name: a.name }).where('id', '=', a.id),
    );
    expect(await rename({ id: workspace.id, name: 'After' })).toEqual([]);
    expect(await store.workspaces.list()).toEqual([{ ...workspace, name: 'After' }]);
    await store.close();
  });

  it('answer right however many distinct queries have run', async () => {
    const opened = await migrated();
    const queries = Array.from({ length: 300 }, (_, n) =>
      preparedQuery(opened.driver, 'test', { x: argument<number>() }, (a) =>
        opened.db.selectNoFrom([sql<number>`${a.x}`.as('x'), sql<number>`${sql.lit(n)}`.as('n')]),
      ),
    );
    for (const [n, query] of queries.entries()) expect(await query({ x: n * 2 })).toEqual([{ x: n * 2, n }]);
    for (const [n, query] of queries.entries()) expect(await query({ x: n * 3 })).toEqual([{ x: n * 3, n }]);
    await opened.db.destroy();
  });

  it('put a constant string of the query where it was, beside the arguments', async () => {
    const opened = await migrated();
    const store = createStore(opened, secrets);
    const workspace = await store.workspaces.create('Named', new Date());
    const byName = preparedQuery(opened.driver, 'test', { id: argument<string>() }, (a) =>
      opened.db.selectFrom('workspaces').select('id').where('name', '=', 'Named').where('id', '=', a.id),
    );
    expect(byName.bind({ id: workspace.id }).parameters).toEqual(['Named', workspace.id]);
    expect(await byName({ id: workspace.id })).toEqual([{ id: workspace.id }]);
    await store.close();
  });

  it('apply a read-modify-write before any query called after it', async () => {
    const opened = await migrated();
    const store = createStore(opened, secrets);
    const workspace = await store.workspaces.create('W', new Date());
    const read = readName(opened, workspace.id);
    const writing = opened.driver.readModifyWrite(read, renameOnce(opened, workspace.id));
    const reading = opened.driver.run(read.plain);
    expect(await writing).toBe('renamed');
    expect(await reading).toEqual([{ name: 'W (renamed)' }]);
    await store.close();
  });

  it('also run through Kysely’s own connection, with the parameters as they are', async () => {
    const opened = await migrated();
    const store = createStore(opened, secrets);
    const workspace = await store.workspaces.create('Through Kysely', new Date());
    const byKysely = kyselyDriver(opened.db);
    expect(await byKysely.run(readName(opened, workspace.id).plain)).toEqual([{ name: 'Through Kysely' }]);
    await store.close();
  });
});
