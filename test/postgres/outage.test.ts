// While PostgreSQL is unreachable (a TCP proxy the test controls is cut), requests get 503 with
// Retry-After within a second and /readyz says not ready; service resumes by itself. While it
// answers late, requests are answered late by as much, and lose nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase } from '../support/database.js';
import { readDestination } from '../support/destinations.js';
import {
  call,
  createTestDestination,
  createWorkspace,
  startTestServer,
  type TestServer,
  type Workspace,
} from '../support/server.js';
import { TcpProxy } from '../support/tcp-proxy.js';

let database: TestDatabase;
let proxy: TcpProxy;
let server: TestServer;
let workspace: Workspace;

beforeAll(async () => {
  database = await createPostgresDatabase();
  const direct = new URL(database.url);
  proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  await proxy.start();
  const viaProxy = new URL(database.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  server = await startTestServer({ databaseUrl: viaProxy.toString() });
  workspace = await createWorkspace(server.store, server.clock.now());
});

afterAll(async () => {
  await server?.close();
  await proxy?.stop();
  await database?.drop();
});

const listVersions = () => call(server, 'GET', '/api/v1/presets/none/versions', { key: workspace.standardKey });

describe('database outage', () => {
  it('answers 503 with Retry-After within 1 s while the database is unreachable, then recovers by itself', async () => {
    expect((await listVersions()).status).toBe(404);
    expect((await call(server, 'GET', '/readyz')).status).toBe(200);

    await proxy.stop();
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const response = await listVersions();
      const elapsed = performance.now() - started;
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(elapsed).toBeLessThan(1000);
    }
    expect((await call(server, 'GET', '/readyz')).status).toBe(503);
    expect(server.serverErrors()).toEqual([]);

    await proxy.start();
    let recovered = false;
    for (let attempt = 0; attempt < 50 && !recovered; attempt++) {
      recovered = (await listVersions()).status === 404;
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered).toBe(true);
    expect((await call(server, 'GET', '/readyz')).status).toBe(200);
  }, 30_000);
});

describe('a database that hangs', () => {
  it('answers 503 to a request queued behind connections that never come back, within about the connect timeout', async () => {
    // Its own server: two connections, and 500 ms without one coming back counts as unreachable.
    const viaProxy = new URL(database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const small = await startTestServer({
      databaseUrl: viaProxy.toString(),
      databaseOptions: { poolSize: 2, connectTimeoutMs: 500 },
    });
    const figures = (store: Store) => store.poolFigures() ?? { total: 0, idle: 0, waiting: 0, max: 0 };
    const list = () => call(small, 'GET', '/api/v1/presets/none/versions', { key: workspace.standardKey });
    try {
      for (let attempt = 0; attempt < 20 && figures(small.store).total < 2; attempt++) {
        expect((await Promise.all([list(), list(), list(), list()])).map((answer) => answer.status)).toEqual([
          404, 404, 404, 404,
        ]);
      }
      expect(figures(small.store)).toMatchObject({ total: 2, idle: 2 });

      proxy.freeze();
      // Two requests take the two connections, and hang with the database.
      const hanging = [list(), list()];
      for (let attempt = 0; attempt < 100 && figures(small.store).idle > 0; attempt++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(figures(small.store).idle).toBe(0);

      const started = performance.now();
      const queued = await list();
      const elapsed = performance.now() - started;
      expect(queued.status).toBe(503);
      expect(Number(queued.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(elapsed).toBeGreaterThanOrEqual(400);
      expect(elapsed).toBeLessThan(5000);

      // Cut, the hanging ones end too, with 503.
      await proxy.stop();
      expect((await Promise.all(hanging)).map((answer) => answer.status)).toEqual([503, 503]);
      expect(small.serverErrors()).toEqual([]);
    } finally {
      await proxy.stop();
      await proxy.start();
      await small.close();
    }
  }, 30_000);
});

async function timedOnce<T>(request: () => Promise<T>): Promise<{ answer: T; elapsed: number }> {
  const started = performance.now();
  const answer = await request();
  return { answer, elapsed: performance.now() - started };
}

describe('a database that answers after 2 s', () => {
  const DELAY_MS = 2000;
  // Round trips a request makes: the key's lookup, then a getKey's one statement, or a PATCH's read
  // and conditional write.
  const ROUND_TRIPS = { getKey: 2, patch: 3 };

  it('answers every request late by the delay of each round trip, with no error, keeps every acknowledged write, and is fast again as soon as the database is', async () => {
    const destinationPath = await createTestDestination(server, workspace);
    const getKey = () =>
      call(server, 'GET', `/api/v1/keys/${workspace.standardKeyHash}`, { key: workspace.managementKey });
    const rename = (name: string) =>
      call(server, 'PATCH', destinationPath, { key: workspace.managementKey, body: { name } });
    // Connections open first: a new one takes several round trips, each as late, and past the
    // connect timeout the request is answered 503 (the row above).
    for (let attempt = 0; attempt < 20 && (server.store.poolFigures()?.total ?? 0) < 2; attempt++)
      expect((await Promise.all([getKey(), getKey(), getKey()])).map((answer) => answer.status)).toEqual([
        200, 200, 200,
      ]);
    expect(server.store.poolFigures()?.total).toBeGreaterThanOrEqual(2);

    proxy.delay(DELAY_MS);
    try {
      const [read, write] = await Promise.all([timedOnce(getKey), timedOnce(() => rename('renamed while slow'))]);
      expect([read.answer.status, write.answer.status]).toEqual([200, 200]);
      expect(read.elapsed).toBeGreaterThanOrEqual(DELAY_MS);
      expect(read.elapsed).toBeLessThan(ROUND_TRIPS.getKey * DELAY_MS + 1500);
      expect(write.elapsed).toBeGreaterThanOrEqual(DELAY_MS);
      expect(write.elapsed).toBeLessThan(ROUND_TRIPS.patch * DELAY_MS + 1500);
    } finally {
      proxy.delay(0);
    }

    const fast = await timedOnce(getKey);
    expect(fast.answer.status).toBe(200);
    expect(fast.elapsed).toBeLessThan(1000);
    const stored = await readDestination(server.store, workspace.id, destinationPath.split('/').pop() ?? '');
    expect(stored?.state.name).toBe('renamed while slow');
    expect(server.serverErrors()).toEqual([]);
  }, 30_000);
});
