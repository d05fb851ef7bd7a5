// A row or a table locked by another session (an operator's open transaction, a migration, a long
// report) holds up only the writes that need it, and those for one lock timeout at most: reads and
// other rows keep being served within a second, the writes that meet the lock get 503 with
// Retry-After, nothing acknowledged is lost, and the pool's connections are all given back. While
// it lasts, PostgreSQL itself shows how many of the server's sessions wait on a lock: one for a row,
// at most the writers' share of the pool for a table.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { percentile } from '../../bench/shared/stats.js';
import { DEFAULT_TIMEOUTS } from '../../server/store/connection.js';
import { createPostgresDatabase, type TestDatabase } from '../support/database.js';
import { readDestination } from '../support/destinations.js';
import {
  type CallResult,
  call,
  createWorkspace,
  provision,
  startTestServer,
  type TestServer,
  type Workspace,
} from '../support/server.js';

const HOLD_MS = 15_000;
const POOL_SIZE = 10;
const WRITERS = POOL_SIZE / 2;
const LOCK_TIMEOUT_MS = DEFAULT_TIMEOUTS.lockMs;

let database: TestDatabase;
let server: TestServer;
let workspace: Workspace;
const destinations: string[] = [];

beforeAll(async () => {
  database = await createPostgresDatabase();
  server = await startTestServer({ databaseUrl: database.url, databaseOptions: { poolSize: POOL_SIZE } });
  const now = server.clock.now();
  workspace = await createWorkspace(server.store, now);
  for (let i = 0; i < 30; i++) {
    const destination = await provision.createDestination(
      server.store,
      { workspaceId: workspace.id, type: 'otel-collector', config: { endpoint: 'https://otel.example.com' } },
      now,
    );
    destinations.push(destination.id);
  }
  for (let version = 1; version <= 3; version++)
    await provision.addPresetVersion(
      server.store,
      { workspaceId: workspace.id, slug: 'locks', config: { model: 'm/x' } as never, creatorId: 'u' },
      now,
    );
}, 60_000);

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | null;
  sent: number;
}

async function timed(request: () => Promise<CallResult>, sent = 0): Promise<Answer> {
  const started = performance.now();
  const response = await request();
  return {
    status: response.status,
    ms: performance.now() - started,
    retryAfter: response.headers.get('retry-after'),
    sent,
  };
}

const patch = (id: string, sampling_rate: number) =>
  call(server, 'PATCH', `/api/v1/observability/destinations/${id}`, {
    key: workspace.managementKey,
    body: { sampling_rate },
  });

/** Reads of keys and pages by `clients` clients, one request after another, until `until` resolves. */
async function readWhile(until: Promise<unknown>, clients = 4): Promise<Answer[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; !done; i++) {
        answers.push(
          await timed(() =>
            (client + i) % 2 === 0
              ? call(server, 'GET', `/api/v1/keys/${workspace.standardKeyHash}`, { key: workspace.managementKey })
              : call(server, 'GET', '/api/v1/presets/locks/versions?limit=2', { key: workspace.standardKey }),
          ),
        );
      }
    }),
  );
  return answers;
}

/** The most sessions of the server's database seen waiting on a lock at once, sampled until `until` resolves. */
async function mostWaitingOnLocks(observer: pg.Client, until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  let most = 0;
  while (!done) {
    const { rows } = await observer.query<{ waiting: number }>(
      `select count(*)::int as waiting from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
    );
    most = Math.max(most, rows[0]?.waiting ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return most;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long the server took for each GET it logged since the `from`th log entry, in ms. */
function readTimesLogged(from: number): number[] {
  return server.logs
    .slice(from)
    .filter((entry) => (entry.req as { method?: string } | undefined)?.method === 'GET')
    .map((entry) => Number(entry.responseTime));
}

/** Another session of the same database, as an operator's psql would be. */
async function otherSession(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return client;
}

describe('a row locked by another session for 15 s', () => {
  it('holds up only the PATCHes of that row, each for one lock timeout at most, and loses nothing', async () => {
    const [locked = '', other = ''] = destinations;
    const holder = await otherSession();
    const observer = await otherSession();
    try {
      await holder.query('begin');
      await holder.query('select id from destinations where id = $1 for update', [locked]);
      const heldAt = performance.now();
      const logsBefore = server.logs.length;
      const held = sleep(HOLD_MS).then(() => holder.query('commit'));

      // 40 PATCHes of the locked row: 10 at once, then the rest spread over the hold, the last
      // sent more than a lock timeout before the row is let go.
      const lockedPatches = Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const delay = i < 10 ? 0 : ((i - 10) * (HOLD_MS - 2 * LOCK_TIMEOUT_MS - 1000)) / 30;
          await sleep(delay);
          return timed(() => patch(locked, 0.01 + i / 1000), performance.now() - heldAt);
        }),
      );
      const otherRowPatches = (async () => {
        const answers: Answer[] = [];
        for (let i = 0; i < 10; i++) {
          answers.push(await timed(() => patch(other, 0.5 + i / 100)));
          await sleep(HOLD_MS / 12);
        }
        return answers;
      })();
      const [reads, waiting, lockedAnswers, otherAnswers] = await Promise.all([
        readWhile(held),
        mostWaitingOnLocks(observer, held),
        lockedPatches,
        otherRowPatches,
      ]);

      expect(reads.length).toBeGreaterThan(100);
      expect(reads.filter((answer) => answer.status !== 200)).toEqual([]);
      // No read waited a second in the server (its request log's time: the clients share this
      // process, so their own round trips also carry the test's load); and all but a few were fast.
      const logged = readTimesLogged(logsBefore);
      expect(logged.length).toBeGreaterThanOrEqual(reads.length);
      expect(Math.max(...logged)).toBeLessThan(1000);
      expect(
        percentile(
          reads.map((answer) => answer.ms),
          0.95,
        ),
      ).toBeLessThan(500);

      expect(otherAnswers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      expect(Math.max(...otherAnswers.map((answer) => answer.ms))).toBeLessThan(1000);

      // Sent while the row was held, each PATCH of it is refused within a lock timeout, and never waits longer.
      for (const answer of lockedAnswers) {
        expect(answer.status).toBe(503);
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
        expect(answer.ms).toBeLessThan(LOCK_TIMEOUT_MS + 1000);
      }
      // One connection of the server waited on the row, not the pool.
      expect(waiting).toBe(1);

      // Nothing the PATCHes that were refused sent was written; a PATCH after the lock is gone is.
      const stored = await readDestination(server.store, workspace.id, locked);
      expect(stored?.state.sampling_rate).toBe(1);
      const after = await patch(locked, 0.75);
      expect(after.status).toBe(200);
      expect((await readDestination(server.store, workspace.id, locked))?.state.sampling_rate).toBe(0.75);
      expect((await readDestination(server.store, workspace.id, other))?.state.sampling_rate).toBe(0.59);

      const pool = server.store.poolFigures();
      expect(pool?.waiting).toBe(0);
      expect(pool?.total).toBeLessThanOrEqual(POOL_SIZE);
      expect(server.serverErrors()).toEqual([]);
    } finally {
      await holder.end();
      await observer.end();
    }
  }, 60_000);
});

describe('a table locked by another session while PATCHes of many rows flood in', () => {
  it('keeps the writers waiting on it to their share of the pool, answers each in time, and serves the reads', async () => {
    const holder = await otherSession();
    const observer = await otherSession();
    try {
      // SHARE mode: reads go on, every write of the table waits.
      const logsBefore = server.logs.length;
      await holder.query('begin');
      await holder.query('lock table destinations in share mode');
      const held = sleep(4000).then(() => holder.query('commit'));
      const flood = Promise.all(
        destinations.flatMap((id, row) => [0, 1, 2].map((i) => timed(() => patch(id, 0.2 + (row * 3 + i) / 1000)))),
      );
      const [reads, waiting, answers] = await Promise.all([readWhile(held), mostWaitingOnLocks(observer, held), flood]);

      expect(reads.filter((answer) => answer.status !== 200)).toEqual([]);
      const logged = readTimesLogged(logsBefore);
      expect(logged.length).toBeGreaterThanOrEqual(reads.length);
      expect(Math.max(...logged)).toBeLessThan(1000);
      expect(
        percentile(
          reads.map((answer) => answer.ms),
          0.95,
        ),
      ).toBeLessThan(500);
      expect(waiting).toBeGreaterThan(0);
      expect(waiting).toBeLessThanOrEqual(WRITERS);
      for (const answer of answers) {
        expect([200, 503]).toContain(answer.status);
        expect(answer.ms).toBeLessThan(2 * LOCK_TIMEOUT_MS + 1000);
      }
      expect(answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);

      // Once the table is free, every row can be written again.
      await held;
      const again = await Promise.all(destinations.map((id) => patch(id, 0.125)));
      expect(again.map((response) => response.status)).toEqual(destinations.map(() => 200));
      expect(server.store.poolFigures()?.waiting).toBe(0);
      expect(server.serverErrors()).toEqual([]);
    } finally {
      await holder.end();
      await observer.end();
    }
  }, 60_000);
});
