// The SQLite connection on better-sqlite3 (Node 20 and 22).
import Database from 'better-sqlite3';
import type { SqliteConnection, SqliteOpenOptions } from './connection.js';

export function openConnection(filename: string, options: SqliteOpenOptions): SqliteConnection {
  const sqlite = new Database(filename, { readonly: options.readonly ?? false });
  return {
    driver: 'better-sqlite3',
    // better-sqlite3 takes an array of anonymous parameters as they are.
    prepare: (sql) => sqlite.prepare(sql),
    exec: (sql) => void sqlite.exec(sql),
    get inTransaction() {
      return sqlite.inTransaction;
    },
    immediateTransaction<Args extends unknown[], T>(run: (...args: Args) => T) {
      const transaction = sqlite.transaction(run);
      return (...args: Args) => transaction.immediate(...args);
    },
    async backup(target, pagesPerStep, onStep) {
      const { totalPages } = await sqlite.backup(target, {
        progress: (progress) => {
          onStep?.(progress);
          return pagesPerStep;
        },
      });
      return totalPages;
    },
    close: () => void sqlite.close(),
  };
}
