// Opens the database named by DATABASE_URL: embedded SQLite (`sqlite:<path>`, `sqlite::memory:`)
// or PostgreSQL (`postgres://...`), behind the same Kysely interface.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CompiledQuery, Kysely, SqliteDialect, type SqliteStatement } from 'kysely';
import type { DatabaseOptions, LogQuery, OpenedDatabase } from './connection.js';
import { type BoundQuery, kyselyDriver, type QueryDriver, type RowRead } from './prepared.js';
import { SqliteBooleanPlugin, toSqliteValue } from './sqlite-boolean-plugin.js';
import { openSqliteConnection, type SqliteConnection, sqliteCodeOf } from './sqlite-connection.js';
import type { Database } from './tables.js';
import { isDatabaseUnavailable } from './unavailable.js';

export type { DatabaseOptions, LogQuery, OpenedDatabase, PoolFigures } from './connection.js';
export { isDatabaseUnavailable } from './unavailable.js';

export type DatabaseLocation = { kind: 'sqlite'; filename: string } | { kind: 'postgres'; url: string };

export function parseDatabaseUrl(url: string): DatabaseLocation {
  if (url.startsWith('sqlite:')) {
    const filename = url.slice('sqlite:'.length);
    if (filename === '') throw new Error('DATABASE_URL sqlite: needs a path, or :memory:');
    return { kind: 'sqlite', filename };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    // Without a database name, pg connects to the one named like the user: often the system database.
    if (/^postgres(ql)?:\/\/[^/?#]*\/?(?:[?#].*)?$/.test(url))
      throw new Error(
        'DATABASE_URL names no PostgreSQL database: add /<database> after the host, as in postgres://user@host:5432/api',
      );
    return { kind: 'postgres', url };
  }
  // Only the scheme is shown back: the rest of a URL may hold a password.
  const scheme = url.includes(':') ? `${url.split(':')[0]}:` : url;
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${scheme})`);
}

export async function openDatabase(location: DatabaseLocation, options: DatabaseOptions = {}): Promise<OpenedDatabase> {
  const { log } = options;
  const logQuery: LogQuery | undefined =
    typeof log === 'function'
      ? (sql, parameters) =>
          log({ level: 'query', query: CompiledQuery.raw(sql, [...parameters]), queryDurationMillis: 0 })
      : undefined;
  if (location.kind === 'postgres') {
    // Loaded only for PostgreSQL, so that the embedded database starts without it.
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(location.url, options, logQuery);
  }
  if (location.filename !== ':memory:') mkdirSync(dirname(location.filename), { recursive: true });
  const sqlite = await openSqliteConnection(location.filename);
  sqlite.exec('PRAGMA journal_mode = WAL');
  // In WAL mode NORMAL survives a crash of the process; only a power loss can drop the last commits.
  sqlite.exec('PRAGMA synchronous = NORMAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec('PRAGMA busy_timeout = 5000');
  const prepare = statementCache(sqlite);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: { prepare: (source) => prepare(source), close: () => sqlite.close() } }),
    plugins: [new SqliteBooleanPlugin()],
    ...(log && { log }),
  });
  return { db, driver: sqliteDriver(sqlite, prepare, kyselyDriver(db, toSqliteValue), logQuery) };
}

function sqliteDriver(
  sqlite: SqliteConnection,
  prepare: (source: string) => SqliteStatement,
  throughKysely: QueryDriver,
  logQuery?: LogQuery,
): QueryDriver {
  const rowsOf = ({ sql, parameters }: BoundQuery): unknown[] => {
    const values = parameters.map(toSqliteValue);
    logQuery?.(sql, values);
    const statement = prepare(sql);
    if (statement.reader) return statement.all(values);
    statement.run(values);
    return [];
  };
  const readModifyWrite = sqlite.immediateTransaction(
    (read: BoundQuery, decide: (row: unknown) => { result: unknown; write?: BoundQuery }) => {
      const { result, write } = decide(rowsOf(read)[0]);
      if (write) rowsOf(write);
      return result;
    },
  );
  // Kysely holds the one connection for the whole of a transaction of its own (provisioning
  // uses them); while one is open, queries wait for it there rather than run inside it.
  return {
    async run<Row>(query: BoundQuery<Row>) {
      return sqlite.inTransaction ? throughKysely.run(query) : (rowsOf(query) as Row[]);
    },
    async readModifyWrite<Row, T>(
      read: RowRead<Row>,
      decide: (row: Row | undefined) => { result: T; write?: BoundQuery },
    ) {
      if (sqlite.inTransaction) return throughKysely.readModifyWrite(read, decide);
      return readModifyWrite(read.plain, decide as (row: unknown) => { result: unknown; write?: BoundQuery }) as T;
    },
  };
}

/** Keyed by SQL text, which varies with the shape of a query, never with a value a client sends; bounded all the same. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely prepares every query anew, and preparing costs more than running a small query. The
 * server runs a small fixed set of queries, so their statements are kept, the least recently
 * used dropped first past a bound.
 */
function statementCache(sqlite: SqliteConnection): (source: string) => SqliteStatement {
  const statements = new Map<string, SqliteStatement>();
  return (source) => {
    let statement = statements.get(source);
    if (statement) {
      statements.delete(source);
    } else {
      statement = sqlite.prepare(source);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value ?? '');
    }
    statements.set(source, statement);
    return statement;
  };
}

/** The database of a location as a person would name it, without credentials. */
export function describeDatabase(location: DatabaseLocation): string {
  if (location.kind === 'sqlite') return `SQLite database ${location.filename}`;
  const url = new URL(location.url);
  const name = decodeURIComponent(url.pathname.slice(1)) || url.username || 'postgres';
  return `PostgreSQL database "${name}" on ${url.hostname || 'localhost'}:${url.port || '5432'}`;
}

/** The database of DATABASE_URL could not be opened, for a reason a user can act on. */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
  constructor(
    readonly database: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`Cannot open the ${database}: ${reason}.`, options);
  }
}

/** Why opening failed, in words, when it is something about the database rather than a bug. */
export function openFailureReason(err: unknown): string | undefined {
  const { code: errorCode, message } = (typeof err === 'object' && err !== null ? err : {}) as {
    code?: unknown;
    message?: unknown;
  };
  const code = sqliteCodeOf(err) ?? errorCode;
  if (code === '3D000') return 'it does not exist; create it, or fix the database name in DATABASE_URL';
  if (code === '28P01' || code === '28000') return 'the server refused the user or password of DATABASE_URL';
  if (['SQLITE_CANTOPEN', 'ENOTDIR', 'EEXIST', 'EACCES', 'EROFS'].includes(String(code)))
    return `the file cannot be created or opened (${String(code)}); check that its folder can be written`;
  if (code === 'SQLITE_NOTADB') return 'the file is not a SQLite database';
  // At start, only a migration waits for a lock: another session holds a table it changes.
  if (code === '55P03')
    return 'a migration waited longer than DATABASE_LOCK_TIMEOUT_MS for a lock that another session holds; start again once it is released';
  if (!isDatabaseUnavailable(err)) return undefined;
  return typeof code === 'string' ? `it cannot be reached (${code})` : `it cannot be reached (${String(message)})`;
}
