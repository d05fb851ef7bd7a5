// SQLite's online backup of a live database into a new file, and the check of that file. The copy
// is the database as it stood at one moment, however much a running server writes meanwhile.
import type { BackupProgress } from './connection.js';
import { openSqliteConnection, type SqliteDriverName, sqliteDriverFor } from './sqlite-connection.js';

export type { BackupProgress } from './connection.js';

/** Pages a step copies (4 MiB of 4 KiB pages); the progress is told between steps. */
export const PAGES_PER_STEP = 1024;

/** As many pages as a step can take: the whole database in one step. */
const ALL_PAGES = 0x7fffffff;

export interface SqliteBackupOptions {
  onProgress?: (progress: BackupProgress) => void;
  pagesPerStep?: number;
  driver?: SqliteDriverName;
}

class Restarted extends Error {}

/**
 * Copies the database file `source` into `target` (a new file, or one this backup may replace)
 * on a connection of its own that writes nothing, while others may write (WAL mode).
 */
export async function backupSqliteFile(
  source: string,
  target: string,
  {
    onProgress,
    pagesPerStep = PAGES_PER_STEP,
    driver = sqliteDriverFor(process.versions.node),
  }: SqliteBackupOptions = {},
): Promise<{ pages: number }> {
  // Read-write, yet writing nothing: a read-only connection would leave the -wal and -shm files
  // behind it, where the last connection to close removes them.
  const connection = await openSqliteConnection(source, {}, driver);
  try {
    connection.exec('PRAGMA query_only = ON');
    connection.exec('PRAGMA busy_timeout = 5000');
    let remaining = Number.POSITIVE_INFINITY;
    try {
      const pages = await connection.backup(target, pagesPerStep, (progress) => {
        // Another connection's write between two steps starts the copy again from its first page,
        // and a server that keeps writing would keep it starting again...
        if (progress.remainingPages >= remaining) throw new Restarted();
        remaining = progress.remainingPages;
        onProgress?.(progress);
      });
      return { pages };
    } catch (err) {
      if (!(err instanceof Restarted)) throw err;
    }
    // ...so the rest is one step: one read transaction, which writers in WAL mode do not wait for.
    return { pages: await connection.backup(target, ALL_PAGES) };
  } finally {
    connection.close();
  }
}

export interface SqliteFileCheck {
  /** `ok`, or the first problem PRAGMA quick_check found. */
  quickCheck: string;
  pages: number;
  pageSize: number;
  /** The rows of each table, by name. */
  tables: Record<string, number>;
}

/** What the file of a SQLite database holds, and whether SQLite finds it sound (PRAGMA quick_check). */
export async function checkSqliteFile(
  file: string,
  driver: SqliteDriverName = sqliteDriverFor(process.versions.node),
): Promise<SqliteFileCheck> {
  // Not read-only, for the same reason as the source's: no -wal or -shm left beside the file.
  const connection = await openSqliteConnection(file, {}, driver);
  try {
    connection.exec('PRAGMA query_only = ON');
    const value = (sql: string) => Object.values(connection.prepare(sql).all([])[0] as object)[0] as unknown;
    const quickCheck = String(value('PRAGMA quick_check'));
    const names = connection
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
      )
      .all([])
      .map((row) => String((row as { name: unknown }).name));
    const tables: Record<string, number> = {};
    for (const name of names) tables[name] = Number(value(`SELECT count(*) FROM "${name.replaceAll('"', '""')}"`));
    return {
      quickCheck,
      pages: Number(value('PRAGMA page_count')),
      pageSize: Number(value('PRAGMA page_size')),
      tables,
    };
  } finally {
    connection.close();
  }
}
