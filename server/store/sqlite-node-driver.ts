// The SQLite connection on Node's own node:sqlite (Node 24 and later).
import * as nodeSqlite from 'node:sqlite';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { SqliteConnection, SqliteOpenOptions } from './connection.js';

export function openConnection(filename: string, options: SqliteOpenOptions): SqliteConnection {
  const sqlite = new DatabaseSync(filename, { readOnly: options.readonly ?? false });
  return {
    driver: 'node:sqlite',
    prepare(sql) {
      const statement = sqlite.prepare(sql);
      const reader = statement.columns().length > 0;
      // node:sqlite takes anonymous parameters as arguments, and an object first as named ones.
      return {
        reader,
        all: (parameters) => statement.all(...(parameters as SQLInputValue[])),
        run: (parameters) => statement.run(...(parameters as SQLInputValue[])),
        iterate: (parameters) => statement.iterate(...(parameters as SQLInputValue[])),
      };
    },
    exec: (sql) => sqlite.exec(sql),
    get inTransaction() {
      return sqlite.isTransaction;
    },
    immediateTransaction<Args extends unknown[], T>(run: (...args: Args) => T) {
      return (...args: Args) => {
        sqlite.exec('BEGIN IMMEDIATE');
        try {
          const result = run(...args);
          sqlite.exec('COMMIT');
          return result;
        } catch (err) {
          // SQLite may have rolled back already (a full disk, an interrupted statement).
          if (sqlite.isTransaction) sqlite.exec('ROLLBACK');
          throw err;
        }
      };
    },
    backup(target, pagesPerStep, onStep) {
      // Node.js has it from 22.16 on; the namespace, unlike a named import, loads on a 22 before it.
      if (typeof nodeSqlite.backup !== 'function')
        return Promise.reject(
          new Error(`node:sqlite has no backup on Node.js ${process.versions.node} (22.16 or later)`),
        );
      return nodeSqlite.backup(sqlite, target, { rate: pagesPerStep, ...(onStep && { progress: onStep }) });
    },
    close: () => sqlite.close(),
  };
}
