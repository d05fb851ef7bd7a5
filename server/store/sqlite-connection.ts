// The embedded database's connection, whichever SQLite driver this Node.js runs: better-sqlite3
// where it works (Node 20 and 22), Node's own node:sqlite from Node 24 on, where better-sqlite3 12
// aborts the process when the garbage collector frees a statement and version 13 needs Node 22.
import type { SqliteConnection, SqliteDriverName, SqliteOpenOptions } from './connection.js';

export type { SqliteConnection, SqliteDriverName, SqliteOpenOptions } from './connection.js';

/** The driver for a Node.js version (`process.versions.node`). */
export function sqliteDriverFor(nodeVersion: string): SqliteDriverName {
  return Number.parseInt(nodeVersion, 10) >= 24 ? 'node:sqlite' : 'better-sqlite3';
}

/** Opens a SQLite file (or `:memory:`) with the driver of the running Node.js. */
export async function openSqliteConnection(
  filename: string,
  options: SqliteOpenOptions = {},
  driver: SqliteDriverName = sqliteDriverFor(process.versions.node),
): Promise<SqliteConnection> {
  // Each driver is loaded only where it is used: better-sqlite3 must not run on Node 24.
  const { openConnection } =
    driver === 'node:sqlite' ? await import('./sqlite-node-driver.js') : await import('./sqlite-better-driver.js');
  return openConnection(filename, options);
}

// SQLite's primary result codes (the low byte of an extended code), by the names both drivers use.
const PRIMARY_RESULT_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  2: 'SQLITE_INTERNAL',
  3: 'SQLITE_PERM',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  9: 'SQLITE_INTERRUPT',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  12: 'SQLITE_NOTFOUND',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  15: 'SQLITE_PROTOCOL',
  16: 'SQLITE_EMPTY',
  17: 'SQLITE_SCHEMA',
  18: 'SQLITE_TOOBIG',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
  21: 'SQLITE_MISUSE',
  22: 'SQLITE_NOLFS',
  23: 'SQLITE_AUTH',
  24: 'SQLITE_FORMAT',
  25: 'SQLITE_RANGE',
  26: 'SQLITE_NOTADB',
};

/**
 * The SQLite result code of an error as a name (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_FOREIGNKEY`...).
 * better-sqlite3 names the extended code in `code`; node:sqlite has `code: 'ERR_SQLITE_ERROR'` and the
 * number in `errcode`, named here by its primary code. Undefined for an error that is not SQLite's.
 */
export function sqliteCodeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, errcode } = err as { code?: unknown; errcode?: unknown };
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') return PRIMARY_RESULT_CODES[errcode & 0xff];
  return undefined;
}
