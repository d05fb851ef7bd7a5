// Opens the database named by DATABASE_URL: embedded SQLite (`sqlite:<path>`, `sqlite::memory:`).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type LogConfig } from 'kysely';
import type { Database } from './schema.js';
import { SqliteBooleanPlugin } from './sqlite-boolean-plugin.js';

export type DatabaseLocation = { kind: 'sqlite'; filename: string };

export function parseDatabaseUrl(url: string): DatabaseLocation {
  if (url.startsWith('sqlite:')) {
    const filename = url.slice('sqlite:'.length);
    if (filename === '') throw new Error('DATABASE_URL sqlite: needs a path, or :memory:');
    return { kind: 'sqlite', filename };
  }
  throw new Error(`DATABASE_URL must start with sqlite: (got ${url.split(':')[0]}:)`);
}

export function openDatabase(location: DatabaseLocation, options: { log?: LogConfig } = {}): Kysely<Database> {
  if (location.filename !== ':memory:') mkdirSync(dirname(location.filename), { recursive: true });
  const sqlite = new SqliteDatabase(location.filename);
  sqlite.pragma('journal_mode = WAL');
  // In WAL mode NORMAL survives a crash of the process; only a power loss can drop the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), plugins: [new SqliteBooleanPlugin()], ...options });
}

const UNAVAILABLE_SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY|NOTADB|CORRUPT)/;

/** Whether an error means the database cannot serve now (as opposed to a bug in a query). */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && UNAVAILABLE_SQLITE_CODES.test(code);
}
