// While PostgreSQL is unreachable (a TCP proxy the test controls is cut), requests get 503 with
// Retry-After within a second and /readyz says not ready; service resumes by itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../server/store/index.js';
import { createPostgresDatabase, type TestDatabase } from '../support/database.js';
import { call, createWorkspace, startTestServer, type TestServer, type Workspace } from '../support/server.js';
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
