// PostgreSQL's connection pool, where a request waits for a connection as long as connections keep
// coming back, and only as long. pg's own bound (connectionTimeoutMillis) counts the whole wait in
// the queue: a burst of requests on a healthy database, each waiting its turn behind the others,
// would get 503 for no fault of the database. Here the bound is on progress instead: a waiter fails
// once no connection has been handed out or given back for `stallMs` (every connection held by a
// query that does not end: the database hangs), and opening a connection is bounded on its own.
import pg from 'pg';
import type { PoolFigures, SessionTimeouts } from './connection.js';

export interface ConnectionPool {
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
  figures(): PoolFigures;
}

export interface ConnectionPoolOptions {
  max: number;
  /** How long opening a connection may take, and how long waiters wait with no connection coming back. */
  stallMs: number;
  /** Set on each connection as it opens (PostgreSQL's settings of the same names), in ms; 0 for none. */
  timeouts: SessionTimeouts;
  onError: (err: Error) => void;
}

/**
 * How long after the statement timeout the client itself gives up on an answer: the server ends a
 * slow statement first; this ends the wait on a server that answers nothing at all.
 */
export const CLIENT_WAIT_BEYOND_STATEMENT_MS = 1000;

/** The error of a wait that saw no connection come back; its words are pg's own for a wait that timed out. */
function stalled(stallMs: number): Error {
  return new Error(`timeout exceeded when trying to connect: no database connection came back for ${stallMs} ms`);
}

export function openConnectionPool(
  url: string,
  { max, stallMs, timeouts, onError }: ConnectionPoolOptions,
): ConnectionPool {
  // The bound on opening a connection, without pg-pool's bound on the queue (no
  // connectionTimeoutMillis on the pool); the session's timeouts go in its start-up message.
  class BoundedClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({
        ...config,
        connectionTimeoutMillis: stallMs,
        statement_timeout: timeouts.statementMs,
        lock_timeout: timeouts.lockMs,
        idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
        ...(timeouts.statementMs > 0 && { query_timeout: timeouts.statementMs + CLIENT_WAIT_BEYOND_STATEMENT_MS }),
      });
    }
  }
  const pool = new pg.Pool({ connectionString: url, max, Client: BoundedClient });
  // A connection that drops emits 'error' on its client; with no listener that would crash the
  // process. The pool listens on idle clients only, so every client gets a listener of its own.
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  let lastProgress = performance.now();
  const progressed = () => {
    lastProgress = performance.now();
  };
  pool.on('acquire', progressed);
  pool.on('release', progressed);

  function waitInQueue(): Promise<pg.PoolClient> {
    return new Promise((resolve, reject) => {
      let settled = false;
      let abandoned = false;
      const quietFor = () => performance.now() - lastProgress;
      const giveUpIfStill = () => {
        if (settled) return;
        if (quietFor() < stallMs) {
          timer = setTimeout(watch, stallMs - quietFor());
          return;
        }
        abandoned = true;
        reject(stalled(stallMs));
      };
      // Timers run before the I/O of the same turn: after the event loop was busy for a while, the
      // connections given back meanwhile are seen only once that I/O has run, so it runs first.
      const watch = () => (quietFor() < stallMs ? giveUpIfStill() : setImmediate(giveUpIfStill));
      let timer = setTimeout(watch, stallMs);
      pool.connect().then(
        (client) => {
          settled = true;
          clearTimeout(timer);
          // A connection that comes after its waiter gave up goes back to the next one.
          if (abandoned) client.release();
          else resolve(client);
        },
        (err: unknown) => {
          settled = true;
          clearTimeout(timer);
          if (!abandoned) reject(err);
        },
      );
    });
  }

  return {
    // Only a request that has to queue (every connection open and busy) needs watching; an idle
    // connection, or a new one (bounded by the client itself), comes at once.
    connect: () => (pool.idleCount === 0 && pool.totalCount >= max ? waitInQueue() : pool.connect()),
    end: () => pool.end(),
    figures: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
  };
}
