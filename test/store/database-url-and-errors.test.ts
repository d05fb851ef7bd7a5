// DATABASE_URL as the server reads it, the database named back to a person (without its password),
// and which errors mean the database cannot serve (a 503, or a one-line reason at startup).
import { describe, expect, it } from 'vitest';
import {
  DatabaseOpenError,
  describeDatabase,
  isDatabaseUnavailable,
  openFailureReason,
  parseDatabaseUrl,
} from '../../server/store/database.js';

describe('DATABASE_URL', () => {
  it('names a SQLite file by the path after sqlite:', () => {
    expect(parseDatabaseUrl('sqlite:data/api.db')).toEqual({ kind: 'sqlite', filename: 'data/api.db' });
    expect(parseDatabaseUrl('sqlite:/var/lib/api/api.db')).toEqual({ kind: 'sqlite', filename: '/var/lib/api/api.db' });
  });

  it('names an in-memory SQLite database as sqlite::memory:', () => {
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sqlite', filename: ':memory:' });
  });

  it('refuses sqlite: with no path', () => {
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(new Error('DATABASE_URL sqlite: needs a path, or :memory:'));
  });

  it('keeps a postgres:// or postgresql:// URL whole', () => {
    const url = 'postgres://app:secret@db.example.com:6543/billing?sslmode=require';
    expect(parseDatabaseUrl(url)).toEqual({ kind: 'postgres', url });
    expect(parseDatabaseUrl('postgresql://db.example.com/billing')).toEqual({
      kind: 'postgres',
      url: 'postgresql://db.example.com/billing',
    });
  });

  it('refuses any other scheme, naming the one it got', () => {
    expect(() => parseDatabaseUrl('mysql://localhost/api')).toThrow(
      new Error('DATABASE_URL must start with sqlite: or postgres:// (got mysql:)'),
    );
    expect(() => parseDatabaseUrl('my-postgres://localhost/api')).toThrow(
      new Error('DATABASE_URL must start with sqlite: or postgres:// (got my-postgres:)'),
    );
    expect(() => parseDatabaseUrl('postgres:api')).toThrow(
      new Error('DATABASE_URL must start with sqlite: or postgres:// (got postgres:)'),
    );
  });

  it('shows back a value without a scheme as it was typed, adding nothing', () => {
    expect(() => parseDatabaseUrl('garbage')).toThrow(
      new Error('DATABASE_URL must start with sqlite: or postgres:// (got garbage)'),
    );
  });

  it.each([
    'postgres://postgres@127.0.0.1:5432',
    'postgres://postgres@127.0.0.1:5432/',
    'postgresql://app:secret@db.example.com/?sslmode=require',
  ])('refuses %s, which names no database (pg would take the user’s, often the system database)', (url) => {
    expect(() => parseDatabaseUrl(url)).toThrow(
      new Error(
        'DATABASE_URL names no PostgreSQL database: add /<database> after the host, as in postgres://user@host:5432/api',
      ),
    );
  });
});

describe('the database named for a person', () => {
  it('names a SQLite database by its file', () => {
    expect(describeDatabase({ kind: 'sqlite', filename: 'data/api.db' })).toBe('SQLite database data/api.db');
  });

  it('names a PostgreSQL database, its host and port, never the password', () => {
    expect(describeDatabase({ kind: 'postgres', url: 'postgres://app:hunter2@db.example.com:6543/billing' })).toBe(
      'PostgreSQL database "billing" on db.example.com:6543',
    );
  });

  it('decodes a percent-encoded database name', () => {
    expect(describeDatabase({ kind: 'postgres', url: 'postgres://db.example.com:5433/my%20db' })).toBe(
      'PostgreSQL database "my db" on db.example.com:5433',
    );
  });

  it('fills in what PostgreSQL assumes when the URL leaves it out', () => {
    // No database: the user's name; no user either: postgres. No host: localhost; no port: 5432.
    expect(describeDatabase({ kind: 'postgres', url: 'postgres://app@db.example.com/' })).toBe(
      'PostgreSQL database "app" on db.example.com:5432',
    );
    expect(describeDatabase({ kind: 'postgres', url: 'postgres://db.example.com' })).toBe(
      'PostgreSQL database "postgres" on db.example.com:5432',
    );
    expect(describeDatabase({ kind: 'postgres', url: 'postgres:///api' })).toBe(
      'PostgreSQL database "api" on localhost:5432',
    );
  });
});

describe('a database that cannot be opened', () => {
  it('says which database and why, in one sentence, keeping the original error', () => {
    const cause = Object.assign(new Error('database "billing" does not exist'), { code: '3D000' });
    const error = new DatabaseOpenError('PostgreSQL database "billing" on localhost:5432', 'it is missing', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('DatabaseOpenError');
    expect(error.message).toBe('Cannot open the PostgreSQL database "billing" on localhost:5432: it is missing.');
    expect(error.database).toBe('PostgreSQL database "billing" on localhost:5432');
    expect(error.reason).toBe('it is missing');
    expect(error.cause).toBe(cause);
  });

  it('tells a missing PostgreSQL database and refused credentials apart', () => {
    expect(openFailureReason({ code: '3D000', message: 'database "x" does not exist' })).toBe(
      'it does not exist; create it, or fix the database name in DATABASE_URL',
    );
    expect(openFailureReason({ code: '28P01', message: 'password authentication failed' })).toBe(
      'the server refused the user or password of DATABASE_URL',
    );
    expect(openFailureReason({ code: '28000', message: 'no pg_hba.conf entry' })).toBe(
      'the server refused the user or password of DATABASE_URL',
    );
  });

  it.each(['SQLITE_CANTOPEN', 'ENOTDIR', 'EEXIST', 'EACCES', 'EROFS'])(
    'says that a SQLite file it cannot create or open (%s) needs a folder it can write',
    (code) => {
      expect(openFailureReason(Object.assign(new Error('cannot open'), { code }))).toBe(
        `the file cannot be created or opened (${code}); check that its folder can be written`,
      );
    },
  );

  it('says that a file that is not a SQLite database is not one', () => {
    expect(openFailureReason({ code: 'SQLITE_NOTADB', message: 'file is not a database' })).toBe(
      'the file is not a SQLite database',
    );
  });

  it('reads node:sqlite’s errors by their SQLite result code, as better-sqlite3’s', () => {
    expect(openFailureReason({ code: 'ERR_SQLITE_ERROR', errcode: 26, message: 'file is not a database' })).toBe(
      'the file is not a SQLite database',
    );
    expect(openFailureReason({ code: 'ERR_SQLITE_ERROR', errcode: 14, message: 'unable to open database file' })).toBe(
      'the file cannot be created or opened (SQLITE_CANTOPEN); check that its folder can be written',
    );
    expect(openFailureReason({ code: 'ERR_SQLITE_ERROR', errcode: 1, message: 'no such table: x' })).toBeUndefined();
  });

  it('says that an unreachable database cannot be reached, by its code or else its message', () => {
    expect(openFailureReason({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' })).toBe(
      'it cannot be reached (ECONNREFUSED)',
    );
    expect(openFailureReason({ code: 'SQLITE_BUSY', message: 'database is locked' })).toBe(
      'it cannot be reached (SQLITE_BUSY)',
    );
    expect(openFailureReason(new Error('timeout exceeded when trying to connect'))).toBe(
      'it cannot be reached (timeout exceeded when trying to connect)',
    );
  });

  it('gives no reason for an error that is not about the database, so that it shows as it is', () => {
    expect(openFailureReason(Object.assign(new Error('no such table: x'), { code: 'SQLITE_ERROR' }))).toBeUndefined();
    expect(openFailureReason(new Error('Cannot read properties of undefined'))).toBeUndefined();
    expect(openFailureReason({ code: 8006 })).toBeUndefined();
    expect(openFailureReason(null)).toBeUndefined();
    expect(openFailureReason(undefined)).toBeUndefined();
    expect(openFailureReason('ECONNREFUSED')).toBeUndefined();
  });
});

describe('errors that mean the database cannot serve now', () => {
  it.each([
    'SQLITE_BUSY',
    'SQLITE_LOCKED',
    'SQLITE_CANTOPEN',
    'SQLITE_IOERR',
    'SQLITE_FULL',
    'SQLITE_READONLY',
    'SQLITE_NOTADB',
    'SQLITE_CORRUPT',
    'SQLITE_BUSY_SNAPSHOT',
    'SQLITE_IOERR_WRITE',
  ])('include SQLite %s', (code) => {
    expect(isDatabaseUnavailable(Object.assign(new Error('sqlite'), { code }))).toBe(true);
  });

  it.each([
    [5, 'SQLITE_BUSY'],
    [517, 'SQLITE_BUSY_SNAPSHOT'],
    [6, 'SQLITE_LOCKED'],
    [778, 'SQLITE_IOERR_WRITE'],
    [13, 'SQLITE_FULL'],
  ])('include node:sqlite’s result code %i (%s)', (errcode) => {
    expect(isDatabaseUnavailable({ code: 'ERR_SQLITE_ERROR', errcode, message: 'sqlite' })).toBe(true);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN'])(
    'include the socket error %s',
    (code) => {
      expect(isDatabaseUnavailable(Object.assign(new Error('socket'), { code }))).toBe(true);
    },
  );

  it.each([
    ['08000', 'connection exception'],
    ['08006', 'connection failure'],
    ['53300', 'too many connections'],
    ['57P01', 'admin shutdown'],
    ['57P02', 'crash shutdown'],
    ['57P03', 'cannot connect now'],
    ['57014', 'query canceled: the statement timeout'],
    ['55P03', 'lock not available: the lock timeout'],
    ['25P03', 'idle in transaction session timeout'],
  ])('include PostgreSQL %s (%s)', (code) => {
    expect(isDatabaseUnavailable({ code, message: 'postgres' })).toBe(true);
  });

  it.each([
    'timeout exceeded when trying to connect',
    'Connection terminated unexpectedly',
    'connection terminated due to connection timeout',
    'Connection was closed by the server',
    'the connection has ended',
    'Client has encountered a connection error and is not queryable',
    'timeout expired',
    'Query read timeout',
  ])('include the driver message "%s", whatever its code', (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
    expect(isDatabaseUnavailable({ code: 'XX000', message })).toBe(true);
  });

  it.each([
    ['a failed constraint', { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: api_keys.hash' }],
    ['a SQL error', { code: 'SQLITE_ERROR', message: 'no such column: x' }],
    ['a message that merely ends like the client timeout', { code: '42703', message: 'lock timeout expired' }],
    [
      'a failed constraint of node:sqlite',
      { code: 'ERR_SQLITE_ERROR', errcode: 2067, message: 'UNIQUE constraint failed' },
    ],
    ['a node:sqlite error without its result code', { code: 'ERR_SQLITE_ERROR', message: 'database is locked' }],
    ['a PostgreSQL unique violation', { code: '23505', message: 'duplicate key value' }],
    ['a code that merely contains a SQLite one', { code: 'E_SQLITE_BUSY', message: 'unrelated' }],
    ['a code that merely ends like a connection exception', { code: '22008', message: 'datetime field overflow' }],
    ['a code that is not a string', { code: 8006, message: 'unrelated' }],
    ['a plain error', new Error('Cannot read properties of undefined')],
    ['a message that is not a string', { message: 42 }],
  ])('exclude %s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });

  it('exclude anything thrown that is not an object, whatever it carries', () => {
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
    expect(isDatabaseUnavailable(42)).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(() => undefined, { code: 'ECONNREFUSED' }))).toBe(false);
  });
});
