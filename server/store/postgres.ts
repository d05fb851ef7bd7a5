// The PostgreSQL side of openDatabase: a pool, Kysely over it, and a driver of named statements.
// PostgreSQL counts (bigint) and numerics come back as strings; the store converts where it reads them.

import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { type DatabaseOptions, DEFAULT_TIMEOUTS, type LogQuery, type OpenedDatabase } from './connection.js';
import { openConnectionPool } from './postgres-pool.js';
import { type BoundQuery, kyselyDriver, type QueryDriver } from './prepared.js';
import { isReadOnlyRefusal } from './read-only.js';
import type { Database } from './tables.js';
import { isDatabaseUnavailable } from './unavailable.js';
import { createWriteAdmission } from './write-admission.js';

/**
 * After a write of a row lost to another writer, PATCHes lock the row first for this long: under
 * a storm of writes an optimistic attempt mostly loses and costs two round trips for nothing.
 * Outside such a storm they write optimistically, as most PATCHes of different rows never meet.
 */
export const LOCK_FIRST_AFTER_CONFLICT_MS = 1000;

export function openPostgres(url: string, options: DatabaseOptions, logQuery?: LogQuery): OpenedDatabase {
  const { log } = options;
  const max = options.poolSize ?? 10;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const pool = openConnectionPool(url, {
    max,
    stallMs: options.connectTimeoutMs ?? 1000,
    timeouts,
    onError: options.onPoolError ?? (() => undefined),
  });
  // A write waits for its place no longer than it may wait for its row's lock.
  const admission = createWriteAdmission({
    writers: options.writers ?? Math.max(1, Math.floor(max / 2)),
    waitMs: timeouts.lockMs > 0 ? timeouts.lockMs : DEFAULT_TIMEOUTS.lockMs,
    isUnavailable: isDatabaseUnavailable,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log && { log }) });
  // Named statements are parsed and planned once per connection.
  const names = new Map<string, string>();
  const run = async <Row>({ sql, parameters }: BoundQuery<Row>): Promise<Row[]> => {
    logQuery?.(sql, parameters);
    let name = names.get(sql);
    if (name === undefined) {
      name = `prepared_${names.size + 1}`;
      names.set(sql, name);
    }
    const client = await pool.connect();
    let result: pg.QueryResult;
    try {
      result = await client.query({ name, text: sql, values: parameters });
    } catch (err) {
      // As pg's pool.query does: a connection whose query failed is closed, not reused; but one whose
      // write the read-only switch refused is sound, and kept while the database moves.
      client.release(isReadOnlyRefusal(err) ? undefined : (err as Error));
      throw err;
    }
    client.release();
    return result.rows as Row[];
  };
  const lockingReadModifyWrite = kyselyDriver(db).readModifyWrite;
  // Lock-first throughout is an optimistic write that has just met a conflict, forever.
  let lastConflictAt = options.rowWrites === 'lock-first' ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  const driver: QueryDriver = {
    run,
    readModifyWrite: (read, decide) =>
      admission.admit(read.row, async () => {
        if (Date.now() - lastConflictAt >= LOCK_FIRST_AFTER_CONFLICT_MS) {
          const [row] = await run(read.plain);
          const { result, write } = decide(row);
          if (!write || (await run(write)).length > 0) return result;
          lastConflictAt = Date.now();
        }
        return lockingReadModifyWrite(read, decide);
      }),
  };
  return { db, driver, poolFigures: pool.figures };
}
