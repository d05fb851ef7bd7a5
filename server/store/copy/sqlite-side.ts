// Either end of a copy on SQLite, on a connection of its own beside the store's: a read
// transaction is one snapshot in WAL mode while a server goes on writing, and a batch is one
// BEGIN IMMEDIATE ... COMMIT of multi-row inserts.
import type { SqliteStatement } from 'kysely';
import { toSqliteValue } from '../sqlite-boolean-plugin.js';
import { openSqliteConnection, type SqliteConnection } from '../sqlite-connection.js';
import type { CopiedTable, Row } from './copied-tables.js';
import { type BatchWriter, PROGRESS_COLUMNS, progressUpsert, type SnapshotReader } from './sides.js';

const placeholder = () => '?';

/** The column a batch's rowids come back as, apart from the table's own. */
const ROWID = '__rowid';

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
    // In rowid order, the order of the table's own b-tree: in primary-key order each row is a lookup
    // from the key's index, which makes a large table several times slower to read.
    async batch(table, from, limit) {
      const columns = table.columns.map((column) => `"${column}"`).join(', ');
      const where = from === null ? '' : ' where rowid > ?';
      const statement = prepare(
        `select rowid as "${ROWID}", ${columns} from "${table.name}"${where} order by rowid limit ?`,
      );
      const rows = statement.all(from === null ? [limit] : [from[0], limit]) as Row[];
      const last = rows.at(-1);
      return { rows, next: rows.length === limit && last ? [Number(last[ROWID])] : null };
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
