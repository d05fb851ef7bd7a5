// Every wait on PostgreSQL has its bound, set on each connection as it opens: a statement that runs
// too long, a lock that does not come, a transaction left idle. A request that meets one gets 503
// with Retry-After, never 500, and its connection goes back to the pool.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { describeFailure } from '../../server/failure.js';
import { isDatabaseUnavailable, openDatabase, parseDatabaseUrl } from '../../server/store/database.js';
import { CLIENT_WAIT_BEYOND_STATEMENT_MS } from '../../server/store/postgres-pool.js';
import { openStore } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase } from '../support/database.js';
import { migrateTo } from '../support/migrations.js';
import { call, createWorkspace, startTestServer, type TestServer, type Workspace } from '../support/server.js';
import { TcpProxy } from '../support/tcp-proxy.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createPostgresDatabase();
});

afterAll(async () => {
  await database?.drop();
});

describe('the bounds set on each PostgreSQL connection', () => {
  it('are the ones configured, on every connection the pool opens', async () => {
    const opened = await openDatabase(parseDatabaseUrl(database.url), {
      poolSize: 3,
      timeouts: { statementMs: 4321, lockMs: 1234, idleInTransactionMs: 5678 },
    });
    try {
      const settings = await Promise.all(
        [0, 1, 2].map(() =>
          opened.db.connection().execute(async (connection) => {
            await sql`select pg_sleep(0.05)`.execute(connection);
            const { rows } = await sql<{
              statement: string;
              lock: string;
              idle: string;
            }>`select current_setting('statement_timeout') as statement, current_setting('lock_timeout') as lock,
                 current_setting('idle_in_transaction_session_timeout') as idle`.execute(connection);
            return rows[0];
          }),
        ),
      );
      expect(settings).toEqual(Array(3).fill({ statement: '4321ms', lock: '1234ms', idle: '5678ms' }));
    } finally {
      await opened.db.destroy();
    }
  });

  it('end a transaction left idle past its bound, as the database being unavailable, and the pool serves on', async () => {
    const opened = await openDatabase(parseDatabaseUrl(database.url), {
      poolSize: 1,
      timeouts: { idleInTransactionMs: 200 },
    });
    try {
      const failure = await opened.db
        .transaction()
        .execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await new Promise((resolve) => setTimeout(resolve, 600));
          await sql`select 1`.execute(trx);
        })
        .catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(failure)).toBe(true);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(opened.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await opened.db.destroy();
    }
  });
});

describe.each([
  ['the statement timeout', { statementMs: 300, lockMs: 30_000 }],
  ['the lock timeout', { statementMs: 30_000, lockMs: 300 }],
])('a request that meets %s', (_bound, timeouts) => {
  let server: TestServer;
  let workspace: Workspace;

  beforeAll(async () => {
    const own = await createPostgresDatabase();
    server = await startTestServer({ databaseUrl: own.url, databaseOptions: { poolSize: 4, timeouts } });
    const close = server.close;
    server.close = async () => {
      await close();
      await own.drop();
    };
    workspace = await createWorkspace(server.store, server.clock.now());
  });

  afterAll(async () => {
    await server?.close();
  });

  it('gets 503 with Retry-After when it is reached, and its connection goes back to the pool', async () => {
    const getKey = () =>
      call(server, 'GET', `/api/v1/keys/${workspace.standardKeyHash}`, { key: workspace.managementKey });
    expect((await getKey()).status).toBe(200);
    const holder = new pg.Client({ connectionString: server.databaseUrl });
    await holder.connect();
    try {
      // Even the key's lookup waits: the whole table is held.
      await holder.query('begin');
      await holder.query('lock table api_keys in access exclusive mode');
      for (let i = 0; i < 6; i++) {
        const started = performance.now();
        const response = await getKey();
        expect(response.status).toBe(503);
        expect(response.body.error.code).toBe(503);
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(performance.now() - started).toBeLessThan(1000);
      }
      await holder.query('commit');
      expect((await getKey()).status).toBe(200);
      const pool = server.store.poolFigures();
      expect(pool?.waiting).toBe(0);
      expect(pool?.total).toBeLessThanOrEqual(4);
      expect(server.serverErrors()).toEqual([]);
    } finally {
      await holder.end();
    }
  });
});

describe('a database that answers nothing at all', () => {
  it('ends a request on an open connection 1 s after the statement timeout, with 503', async () => {
    const own = await createPostgresDatabase();
    const direct = new URL(own.url);
    const proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.start();
    const viaProxy = new URL(own.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const server = await startTestServer({
      databaseUrl: viaProxy.toString(),
      databaseOptions: { poolSize: 2, timeouts: { statementMs: 300 } },
    });
    try {
      const workspace = await createWorkspace(server.store, server.clock.now());
      const list = () => call(server, 'GET', '/api/v1/presets/none/versions', { key: workspace.standardKey });
      expect((await list()).status).toBe(404);
      // The statement timeout is the server's: a frozen link carries neither the statement nor its cancellation.
      proxy.freeze();
      const started = performance.now();
      const response = await list();
      const elapsed = performance.now() - started;
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(elapsed).toBeGreaterThanOrEqual(300 + CLIENT_WAIT_BEYOND_STATEMENT_MS - 100);
      expect(elapsed).toBeLessThan(300 + CLIENT_WAIT_BEYOND_STATEMENT_MS + 1500);
      expect(server.serverErrors()).toEqual([]);
    } finally {
      await server.close();
      await proxy.stop();
      await own.drop();
    }
  });
});

describe('a migration that meets a lock another session holds', () => {
  /** A database that lacks 0002, and a session of a long report reading the table 0002 alters. */
  async function heldBeforeMigration(): Promise<{ own: TestDatabase; holder: pg.Client }> {
    const own = await createPostgresDatabase();
    const earlier = await openDatabase(parseDatabaseUrl(own.url));
    await migrateTo(earlier.db, '0001_initial');
    await earlier.db.destroy();
    const holder = new pg.Client({ connectionString: own.url });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select count(*) from destinations');
    return { own, holder };
  }

  it('stops the start within the lock timeout, in one line that says so', async () => {
    const { own, holder } = await heldBeforeMigration();
    try {
      const started = performance.now();
      const failure = await openStore(own.url, createSecretBox(randomBytes(32)), { timeouts: { lockMs: 300 } }).then(
        async (store) => {
          await store.close();
          return undefined;
        },
        (err: unknown) => err,
      );
      // Within the 2 s that a connection opened without the configured timeouts would wait.
      expect(performance.now() - started).toBeLessThan(1900);
      expect(describeFailure(failure)).toMatch(
        /^Cannot open the PostgreSQL database "[^"]+" on [^:]+:\d+: a migration waited longer than DATABASE_LOCK_TIMEOUT_MS for a lock that another session holds; start again once it is released\.$/,
      );
      await holder.query('rollback');
      const store = await openStore(own.url, createSecretBox(randomBytes(32)));
      expect(store.migrationsApplied).toEqual(['0002_external_user_broadcast_regions', '0003_expand_data_moves']);
      await store.close();
      // The connection the migration had of its own is closed with the rest.
      const sessions = async () =>
        Number(
          (
            await holder.query(
              'select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
            )
          ).rows[0].n,
        );
      await vi.waitFor(async () => expect(await sessions()).toBe(0), { timeout: 3000, interval: 50 });
    } finally {
      await holder.end();
      await own.drop();
    }
  });

  it('waits for the lock as long as the lock timeout allows, free of the statement timeout of requests', async () => {
    const { own, holder } = await heldBeforeMigration();
    // Outside the holder's transaction, which would see one snapshot of the sessions throughout.
    const observer = new pg.Client({ connectionString: own.url });
    await observer.connect();
    try {
      const opening = openStore(own.url, createSecretBox(randomBytes(32)), {
        timeouts: { statementMs: 200, lockMs: 10_000 },
      });
      opening.catch(() => {});
      // How long the migration has waited for the lock, by the database's clock.
      const waitedMs = async () =>
        Number(
          (
            await observer.query(
              `select coalesce(max(extract(epoch from clock_timestamp() - query_start) * 1000), 0) as ms
               from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
            )
          ).rows[0].ms,
        );
      await expect.poll(waitedMs, { timeout: 5000, interval: 50 }).toBeGreaterThan(600);
      await holder.query('rollback');
      const store = await opening;
      expect(store.migrationsApplied).toEqual(['0002_external_user_broadcast_regions', '0003_expand_data_moves']);
      await store.close();
    } finally {
      await holder.end();
      await observer.end();
      await own.drop();
    }
  });
});
