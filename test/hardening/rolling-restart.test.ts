// A rolling restart fails no request. On SIGTERM /readyz fails at once, the server keeps serving
// for SHUTDOWN_DELAY_MS with `Connection: close`, then closes its listener and drains: under load
// through the signal, no connection is reset, nothing is a 5xx, every request sent before the
// listener closed is answered in full, and every acknowledged PATCH is stored (and no other).
// SIGINT skips the delay; a second signal ends it.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { openStore } from '../../server/store/store.js';
import { createPostgresDatabase } from '../support/database.js';
import { readDestination } from '../support/destinations.js';
import { type ServerProcess, startServerProcess } from '../support/process.js';
import { provision } from '../support/server.js';

const DELAY_MS = 1500;
const GRACE_MS = 10_000;

// SQLite alone; PostgreSQL with Redis's shared rate limits too, when the tests have them.
type Backend = 'sqlite' | 'postgres and redis';
const backends: Backend[] = process.env.TEST_POSTGRES_URL ? ['sqlite', 'postgres and redis'] : ['sqlite'];
const dropAfter: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of dropAfter) await drop();
});

async function prepare(destinations: number, backend: Backend = 'sqlite') {
  let databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'rolling-')), 'api.db')}`;
  const shared: Record<string, string> = {};
  if (backend === 'postgres and redis') {
    const database = await createPostgresDatabase();
    dropAfter.push(database.drop);
    databaseUrl = database.url;
    if (process.env.TEST_REDIS_URL) shared.REDIS_URL = process.env.TEST_REDIS_URL;
  }
  const secretsKey = randomBytes(32);
  const store = await openStore(databaseUrl, createSecretBox(secretsKey));
  const workspace = await store.workspaces.create('Rolling', new Date());
  const key = await provision.createKey(
    store,
    { workspaceId: workspace.id, name: 'Admin', kind: 'management' },
    new Date(),
  );
  const ids: string[] = [];
  for (let i = 0; i < destinations; i++) {
    const destination = await provision.createDestination(
      store,
      { workspaceId: workspace.id, type: 'webhook', name: `before-${i}`, config: { url: 'https://hooks.example.com' } },
      new Date(),
    );
    ids.push(destination.id);
  }
  await store.close();
  return {
    env: {
      DATABASE_URL: databaseUrl,
      SECRETS_KEY: secretsKey.toString('base64'),
      SHUTDOWN_DELAY_MS: String(DELAY_MS),
      ...shared,
    },
    apiKey: key.rawKey,
    keyHash: key.hash,
    workspaceId: workspace.id,
    ids,
    reopen: () => openStore(databaseUrl, createSecretBox(secretsKey)),
  };
}

type Outcome =
  | { kind: 'answered'; status: number; body: string; connection: string | undefined; sentAt: number }
  | { kind: 'refused'; sentAt: number }
  | { kind: 'broken'; code: string; sentAt: number };

/** One request on a connection of its own, as curl sends it. */
function send(url: string, method: string, path: string, apiKey: string, body?: string): Promise<Outcome> {
  const sentAt = performance.now();
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, {
      method,
      agent: false,
      headers: { authorization: `Bearer ${apiKey}`, ...(body && { 'content-type': 'application/json' }) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          kind: 'answered',
          status: res.statusCode ?? 0,
          body: text,
          connection: res.headers.connection,
          sentAt,
        }),
      );
      res.on('error', (err: NodeJS.ErrnoException) =>
        resolve({ kind: 'broken', code: err.code ?? err.message, sentAt }),
      );
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve(
        err.code === 'ECONNREFUSED'
          ? { kind: 'refused', sentAt }
          : { kind: 'broken', code: err.code ?? err.message, sentAt },
      ),
    );
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SIGTERM; resolves with the exit code and the time from the signal to the exit. */
async function terminate(server: ServerProcess, signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
  const exited = once(server.child, 'exit');
  const signalledAt = performance.now();
  server.child.kill(signal);
  const [code] = (await exited) as [number | null];
  return { code, ms: performance.now() - signalledAt };
}

/** Polls /readyz through the delay: the statuses it answered, until the listener closes. */
async function pollReadiness(url: string, until: Promise<unknown>): Promise<number[]> {
  const statuses: number[] = [];
  let done = false;
  void until.then(() => (done = true));
  while (!done) {
    const outcome = await send(url, 'GET', '/readyz', '');
    if (outcome.kind !== 'answered') break;
    statuses.push(outcome.status);
    await sleep(100);
  }
  return statuses;
}

describe.each(backends)('rolling restart on %s', (backend) => {
  it('SIGTERM under load: no reset, no 5xx, every request sent before the listener closed answered, exit 0', async () => {
    const { env, apiKey, keyHash } = await prepare(0, backend);
    const server = await startServerProcess(env);
    const path = `/api/v1/keys/${keyHash}`;
    const requests: Promise<Outcome>[] = [];
    // 100 concurrent before the signal, then up to 100 more started while the server delays: in its
    // first half only, so that however slow this machine is, the listener has not closed when the
    // last of them connects (one still waiting to be accepted then would be reset by the kernel).
    for (let i = 0; i < 100; i++) requests.push(send(server.url, 'GET', path, apiKey));
    await sleep(50);
    const signalledAt = performance.now();
    const exit = terminate(server, 'SIGTERM');
    const readiness = pollReadiness(server.url, exit);
    for (let i = 0; i < 10; i++) {
      await sleep(50);
      if (performance.now() - signalledAt > DELAY_MS / 2) break;
      for (let j = 0; j < 10; j++) requests.push(send(server.url, 'GET', path, apiKey));
    }
    const outcomes = await Promise.all(requests);
    const { code, ms } = await exit;

    expect(outcomes.filter((o) => o.kind === 'broken')).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(100);
    const answered = outcomes.filter((o) => o.kind === 'answered');
    expect(answered).toHaveLength(outcomes.length);
    expect(answered.filter((o) => o.status !== 200)).toEqual([]);
    expect(answered.every((o) => JSON.parse(o.body).data.hash === keyHash)).toBe(true);
    expect(await readiness).toContain(503);
    expect(code).toBe(0);
    expect(ms).toBeGreaterThanOrEqual(DELAY_MS - 100);
    expect(ms).toBeLessThan(DELAY_MS + GRACE_MS);
  }, 30_000);

  it('answers with Connection: close during the delay, and refuses new connections once the listener closed', async () => {
    const { env, apiKey, keyHash } = await prepare(0, backend);
    const server = await startServerProcess(env);
    const exit = terminate(server, 'SIGTERM');
    // The delay has begun once readiness says so.
    await expect
      .poll(
        async () => {
          const readiness = await send(server.url, 'GET', '/readyz', '');
          return readiness.kind === 'answered' ? readiness.status : readiness.kind;
        },
        { timeout: 5000, interval: 20 },
      )
      .toBe(503);
    const during = await send(server.url, 'GET', `/api/v1/keys/${keyHash}`, apiKey);
    expect(during).toMatchObject({ kind: 'answered', status: 200, connection: 'close' });
    expect((await exit).code).toBe(0);
    expect((await send(server.url, 'GET', '/healthz', '')).kind).toBe('refused');
  }, 30_000);

  it('PATCH through SIGTERM: every acknowledged write is stored, and no other', async () => {
    const { env, apiKey, ids, workspaceId, reopen } = await prepare(120, backend);
    const server = await startServerProcess(env);
    const patch = (id: string, i: number) =>
      send(
        server.url,
        'PATCH',
        `/api/v1/observability/destinations/${id}`,
        apiKey,
        JSON.stringify({ name: `after-${i}` }),
      );
    const requests: Promise<Outcome>[] = ids.slice(0, 60).map(patch);
    await sleep(50);
    const exit = terminate(server, 'SIGTERM');
    // Some during the delay, and the last ones after the listener has closed.
    for (const [i, id] of ids.slice(60, 100).entries()) {
      requests.push(patch(id, 60 + i));
      if (i % 10 === 9) await sleep(100);
    }
    const { code } = await exit;
    for (const [i, id] of ids.slice(100).entries()) requests.push(patch(id, 100 + i));
    const outcomes = await Promise.all(requests);
    expect(code).toBe(0);
    expect(outcomes.filter((o) => o.kind === 'broken')).toEqual([]);
    expect(outcomes.filter((o) => o.kind === 'answered' && o.status !== 200)).toEqual([]);

    const store = await reopen();
    try {
      for (const [i, id] of ids.entries()) {
        const stored = await readDestination(store, workspaceId, id);
        const acknowledged = outcomes[i]?.kind === 'answered';
        expect(stored?.state.name, `destination ${i}`).toBe(acknowledged ? `after-${i}` : `before-${i}`);
      }
    } finally {
      await store.close();
    }
    // The ones sent after the exit were refused, not lost in flight.
    expect(outcomes.slice(100).every((o) => o.kind === 'refused')).toBe(true);
  }, 30_000);
});

describe('stopping at once', () => {
  it('SIGINT skips the delay', async () => {
    const { env } = await prepare(0);
    const server = await startServerProcess({ ...env, SHUTDOWN_DELAY_MS: '5000' });
    const { code, ms } = await terminate(server, 'SIGINT');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(2000);
  }, 30_000);

  it('a second signal during the delay drains at once', async () => {
    const { env } = await prepare(0);
    const server = await startServerProcess({ ...env, SHUTDOWN_DELAY_MS: '5000' });
    const exit = terminate(server, 'SIGTERM');
    await sleep(200);
    server.child.kill('SIGTERM');
    const { code, ms } = await exit;
    expect(code).toBe(0);
    expect(ms).toBeLessThan(2000);
  }, 30_000);
});
