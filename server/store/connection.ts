// What opening a database takes and gives, shared by the SQLite and PostgreSQL sides.
import type { Kysely, LogConfig, SqliteDatabase, SqliteStatement } from 'kysely';
import type { QueryDriver } from './prepared.js';
import type { Database } from './tables.js';

export interface DatabaseOptions {
  log?: LogConfig;
  /** PostgreSQL connections per process. */
  poolSize?: number;
  /**
   * How long opening a PostgreSQL connection may take, and how long requests queued for one wait
   * while no connection comes back, before the database counts as unreachable (postgres-pool.ts).
   */
  connectTimeoutMs?: number;
  /** PostgreSQL's statement, lock and idle-in-transaction timeouts of each connection, in ms; 0 for none. */
  timeouts?: Partial<SessionTimeouts>;
  /** PostgreSQL: rows written at once by this process (write-admission.ts); half the pool by default. */
  writers?: number;
  /**
   * PostgreSQL: how a PATCH writes its row. `optimistic` (the default): read, then write over the
   * revision read, taking the row's lock first only after a conflict (postgres.ts); `lock-first`:
   * every write in a transaction under SELECT … FOR UPDATE. The benchmark compares the two.
   */
  rowWrites?: 'optimistic' | 'lock-first';
  /** Reports errors of idle pooled connections (a restarted database, a dropped link). */
  onPoolError?: (err: Error) => void;
  /** Wraps the driver of the request path's statements (tracing's spans); the driver itself when absent. */
  wrapDriver?: (driver: QueryDriver, system: 'sqlite' | 'postgresql') => QueryDriver;
}

export type LogQuery = (sql: string, parameters: readonly unknown[]) => void;

export interface OpenedDatabase {
  db: Kysely<Database>;
  /** Runs queries compiled once straight on the driver (see prepared.ts). */
  driver: QueryDriver;
  /** The connection pool's state, for a database that has one. */
  poolFigures?: () => PoolFigures;
}

export interface PoolFigures {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** PostgreSQL's bounds on the waits of a session, in ms; 0 for none. */
export interface SessionTimeouts {
  statementMs: number;
  lockMs: number;
  idleInTransactionMs: number;
}

/** What a database waits on at most, in ms, unless told otherwise (README, "Configuration"). */
export const DEFAULT_TIMEOUTS: SessionTimeouts = { statementMs: 5000, lockMs: 2000, idleInTransactionMs: 5000 };

export type SqliteDriverName = 'better-sqlite3' | 'node:sqlite';

/** The embedded database's connection, on better-sqlite3 or node:sqlite (sqlite-connection.ts). */
export interface SqliteConnection extends SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  /** Runs SQL without results (pragmas, migrations' raw SQL). */
  exec(sql: string): void;
  readonly inTransaction: boolean;
  /** `run` as one BEGIN IMMEDIATE ... COMMIT, rolled back if it throws. */
  immediateTransaction<Args extends unknown[], T>(run: (...args: Args) => T): (...args: Args) => T;
  readonly driver: SqliteDriverName;
  /**
   * SQLite's online backup of the database into the file `target`, `pagesPerStep` pages a step;
   * `onStep` is told after each step but the last, and what it throws ends the backup. The number
   * of pages copied.
   */
  backup(target: string, pagesPerStep: number, onStep?: (progress: BackupProgress) => void): Promise<number>;
}

export interface BackupProgress {
  totalPages: number;
  remainingPages: number;
}

export interface SqliteOpenOptions {
  readonly?: boolean;
}
