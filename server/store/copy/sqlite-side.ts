// Either end of a copy on SQLite, on a connection of its own beside the store's: a read
// transaction is one snapshot in WAL mode while a server goes on writing, and a batch is one
// BEGIN IMMEDIATE ... COMMIT of multi-row inserts.
import type { SqliteStatement } from 'kysely';
import { toSqliteValue } from '../sqlite-boolean-plugin.js';
import { openSqliteConnection, type SqliteConnection } from '../sqlite-connection.js';
import type { CopiedTable, Row } from './copied-tables.js';
import { type BatchWriter, batchQuery, PROGRESS_COLUMNS, progressUpsert, type SnapshotReader } from './sides.js';

const placeholder = () => '?';

/** Parameters of one statement at most: SQLite before 3.32 allows 999. */
const MAX_PARAMETERS = 999;

function statements(connection: SqliteConnection): (text: string) => SqliteStatement {
  const prepared = new Map<string, SqliteStatement>();
  return (text) => {
    let statement = prepared.get(text);
    if (!statement) {
      statement = connection.prepare(text);
      prepared.set(text, statement);
    }
    return statement;
  };
}

export async function sqliteSnapshot(file: string): Promise<SnapshotReader> {
  const connection = await openSqliteConnection(file);
  const prepare = statements(connection);
  connection.exec('PRAGMA query_only = ON');
  connection.exec('PRAGMA busy_timeout = 5000');
  // A deferred transaction takes its snapshot at its first read, here.
  connection.exec('BEGIN');
  prepare('select count(*) as n from kysely_migration').all([]);
  return {
    async count(table) {
      const [row] = prepare(`select count(*) as n from "${table.name}"`).all([]) as { n: number }[];
      return Number(row?.n ?? 0);
    },
    async rowsAfter(table, after, limit) {
      const { text, values } = batchQuery(table, after, limit, placeholder);
      return prepare(text).all(values.map(toSqliteValue)) as Row[];
    },
    async close() {
      connection.exec('COMMIT');
      connection.close();
    },
  };
}

export async function sqliteWriter(file: string): Promise<BatchWriter> {
  const connection = await openSqliteConnection(file);
  const prepare = statements(connection);
  connection.exec('PRAGMA journal_mode = WAL');
  connection.exec('PRAGMA synchronous = NORMAL');
  connection.exec('PRAGMA foreign_keys = ON');
  connection.exec('PRAGMA busy_timeout = 5000');
  const insertOf = (table: CopiedTable, rows: number) => {
    const tuple = `(${table.columns.map(() => '?').join(', ')})`;
    const columns = table.columns.map((column) => `"${column}"`).join(', ');
    return prepare(`insert into "${table.name}" (${columns}) values ${Array(rows).fill(tuple).join(', ')}`);
  };
  const upsert = prepare(progressUpsert(placeholder));
  return {
    async write(table, rows, progress) {
      const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / table.columns.length));
      connection.exec('BEGIN IMMEDIATE');
      try {
        for (let start = 0; start < rows.length; start += perStatement) {
          const chunk = rows.slice(start, start + perStatement);
          insertOf(table, chunk.length).run(chunk.flat().map(toSqliteValue));
        }
        upsert.run(PROGRESS_COLUMNS.map((column) => toSqliteValue(progress[column])));
        connection.exec('COMMIT');
      } catch (err) {
        connection.exec('ROLLBACK');
        throw err;
      }
    },
    async close() {
      connection.close();
    },
  };
}
