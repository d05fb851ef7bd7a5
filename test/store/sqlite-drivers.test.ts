// The embedded database's two drivers behind one connection: which one each Node.js runs, and
// that every driver this Node.js has answers alike (Node 20: better-sqlite3; 22: both; 24 on: node:sqlite).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  openSqliteConnection,
  type SqliteConnection,
  type SqliteDriverName,
  sqliteCodeOf,
  sqliteDriverFor,
} from '../../server/store/sqlite-connection.js';

describe('the driver of each Node.js', () => {
  it.each([
    ['20.19.0', 'better-sqlite3'],
    ['22.12.0', 'better-sqlite3'],
    ['22.23.3', 'better-sqlite3'],
    ['24.0.0', 'node:sqlite'],
    ['24.21.0', 'node:sqlite'],
    ['26.1.0', 'node:sqlite'],
  ])('Node %s runs %s', (version, driver) => {
    expect(sqliteDriverFor(version)).toBe(driver);
  });

  it('is the one the running Node.js gets by default', async () => {
    const connection = await openSqliteConnection(':memory:');
    expect(connection.driver).toBe(sqliteDriverFor(process.versions.node));
    connection.close();
  });
});

/** better-sqlite3 wherever better-sqlite3 works, node:sqlite wherever Node.js has it. */
const driversHere: SqliteDriverName[] = [
  ...(sqliteDriverFor(process.versions.node) === 'better-sqlite3' ? (['better-sqlite3'] as const) : []),
  ...(process.getBuiltinModule?.('node:sqlite') ? (['node:sqlite'] as const) : []),
];

const folder = mkdtempSync(join(tmpdir(), 'sqlite-drivers-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Rows as plain objects: node:sqlite's have no prototype. */
const plain = (rows: Iterable<unknown>) => [...rows].map((row) => ({ ...(row as object) }));

async function withTable(driver: SqliteDriverName): Promise<SqliteConnection> {
  const connection = await openSqliteConnection(':memory:', {}, driver);
  connection.exec('create table t (id integer primary key, name text unique, n integer)');
  return connection;
}

describe.each(driversHere)('the %s connection', (driver) => {
  it('runs writes and reads with anonymous parameters', async () => {
    const connection = await withTable(driver);
    const insert = connection.prepare('insert into t (name, n) values (?, ?)');
    expect(insert.reader).toBe(false);
    expect(insert.run(['a', 1])).toMatchObject({ changes: 1, lastInsertRowid: 1 });
    insert.run(['b', null]);
    const select = connection.prepare('select name, n from t order by id');
    expect(select.reader).toBe(true);
    expect(plain(select.all([]))).toEqual([
      { name: 'a', n: 1 },
      { name: 'b', n: null },
    ]);
    expect(plain(connection.prepare('select name, n from t where n = ?').all([1]))).toEqual([{ name: 'a', n: 1 }]);
    expect(plain(connection.prepare('select name from t order by id').iterate([]))).toEqual([
      { name: 'a' },
      { name: 'b' },
    ]);
    expect(connection.prepare('update t set n = n + 1 returning id').reader).toBe(true);
    connection.close();
  });

  it('commits an immediate transaction, and rolls it back when it throws', async () => {
    const connection = await withTable(driver);
    const insert = connection.prepare('insert into t (name) values (?)');
    const insertBoth = connection.immediateTransaction((first: string, second: string) => {
      expect(connection.inTransaction).toBe(true);
      insert.run([first]);
      insert.run([second]);
      return 'done';
    });
    expect(insertBoth('a', 'b')).toBe('done');
    expect(connection.inTransaction).toBe(false);
    expect(() => insertBoth('c', 'a')).toThrow(/UNIQUE constraint failed/);
    expect(connection.inTransaction).toBe(false);
    expect(plain(connection.prepare('select name from t order by name').all([]))).toEqual([
      { name: 'a' },
      { name: 'b' },
    ]);
    connection.close();
  });

  it('names its errors by SQLite result code', async () => {
    const connection = await withTable(driver);
    connection.prepare('insert into t (name) values (?)').run(['a']);
    let failure: unknown;
    try {
      connection.prepare('insert into t (name) values (?)').run(['a']);
    } catch (err) {
      failure = err;
    }
    expect(sqliteCodeOf(failure)).toMatch(/^SQLITE_CONSTRAINT/);
    connection.close();
  });

  it('opens a file read-only when asked, refusing writes', async () => {
    const file = join(folder, `${driver.replace(':', '-')}.db`);
    const writer = await openSqliteConnection(file, {}, driver);
    writer.exec('create table t (id integer)');
    writer.close();
    const reader = await openSqliteConnection(file, { readonly: true }, driver);
    expect(plain(reader.prepare('select count(*) as n from t').all([]))).toEqual([{ n: 0 }]);
    let failure: unknown;
    try {
      reader.exec('insert into t values (1)');
    } catch (err) {
      failure = err;
    }
    expect(sqliteCodeOf(failure)).toMatch(/^SQLITE_READONLY/);
    reader.close();
  });
});

describe('an error that is not SQLite’s', () => {
  it.each([[new Error('plain')], [{ code: 'ENOENT' }], [{ code: 'ERR_SQLITE_ERROR' }], [null], ['SQLITE_BUSY']])(
    'has no SQLite code (%o)',
    (err) => {
      expect(sqliteCodeOf(err)).toBeUndefined();
    },
  );
});
