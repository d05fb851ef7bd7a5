// What opening a database takes and gives, shared by the SQLite and PostgreSQL sides.
import type { Kysely, LogConfig } from 'kysely';
import type { QueryDriver } from './prepared.js';
import type { Database } from './tables.js';

export interface DatabaseOptions {
  log?: LogConfig;
  /** PostgreSQL connections per process. */
  poolSize?: number;
  /** How long a request waits for a PostgreSQL connection before the database counts as unreachable. */
  connectTimeoutMs?: number;
  /** Reports errors of idle pooled connections (a restarted database, a dropped link). */
  onPoolError?: (err: Error) => void;
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
