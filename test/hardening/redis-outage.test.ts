// Redis taken away and slowed under load, between two server processes that share their rate-limit
// counters through it (through a TCP proxy the test controls: Redis itself is never touched). No
// request waits on Redis past REDIS_COMMAND_TIMEOUT_MS: each is answered 200, or 429 where the
// fallback's count (the full limit, in each instance) says so; every acknowledged PATCH is stored;
// one log line marks each change; the fallback's counts show in rate_limit_fallback_total; and once
// Redis is back the limit holds across the two again, with no restart. A server started while Redis
// is unreachable starts, says so in one line, and serves on the fallback. Runs when TEST_REDIS_URL
// names a Redis server (CI starts one).
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { FALLBACK_MESSAGE, SHARED_MESSAGE } from '../../server/rate-limit/rate-limit-redis.js';
import { openStore, type Store } from '../../server/store/store.js';
import { spawnEntry, waitForOutput } from '../support/process.js';
import { provision } from '../support/server.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const redisUrl = process.env.TEST_REDIS_URL;
const LIMIT = 200;
const AUTH_FAILURE_LIMIT = 5;
const COMMAND_TIMEOUT_MS = 250;
const OUTAGE_MS = 6_000;
/** The most a request may take while Redis is away or slow: its timeout, and the rest of the request well within. */
const MAX_WAIT_MS = 1_000;

interface Instance {
  child: ChildProcessWithoutNullStreams;
  url: string;
  metricsUrl: string;
  /** Every line it printed, from its start. */
  lines: string[];
  stop(): Promise<void>;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawnEntry('server/main.ts', [], { PORT: '0', HOST: '127.0.0.1', METRICS_PORT: '0', ...env });
  const lines: string[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const complete = text.split('\n');
    partial = complete.pop() ?? '';
    lines.push(...complete);
  });
  await waitForOutput(child, /"msg":"listening"[^\n]*\n/);
  const listening = JSON.parse(lines.find((line) => line.includes('"msg":"listening"')) ?? '{}') as {
    url: string;
    metrics: string;
  };
  return {
    child,
    lines,
    url: listening.url,
    metricsUrl: listening.metrics,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.on('close', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The lines of `instance` from `from` on with the message `msg`. */
const linesWith = (instance: Instance, msg: string, from = 0) =>
  instance.lines.slice(from).filter((line) => line.includes(`"msg":${JSON.stringify(msg)}`));

async function fallbackCount(instance: Instance, limit: 'rate_limit' | 'auth_failures'): Promise<number> {
  const text = await (await fetch(instance.metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`rate_limit_fallback_total{limit="${limit}"}`));
  return Number(line?.split(' ').pop() ?? Number.NaN);
}

interface Answer {
  instance: number;
  status: number;
  ms: number;
}

let store: Store;
let workspaceId = '';
let destinationId = '';
let secretsKey: Buffer;
let databaseUrl = '';
let proxy: TcpProxy;
let instances: Instance[] = [];

async function managementKey(name: string): Promise<{ raw: string; hash: string }> {
  const key = await provision.createKey(store, { workspaceId, name, kind: 'management' }, new Date());
  return { raw: key.rawKey, hash: key.hash };
}

async function send(instance: Instance, method: string, path: string, key: string, body?: unknown, headers = {}) {
  const started = performance.now();
  const response = await fetch(`${instance.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, body: text };
}

/**
 * OUTAGE_MS of load on both instances, in turn: two workers reading a key (getKey) and one
 * patching the destination with a value that rises by one each time (the acknowledged ones kept in
 * order). Each role has its own key, so that each is counted on its own.
 */
async function load(): Promise<{ reads: Answer[]; patches: (Answer & { value: number })[] }> {
  const reader = await managementKey('Reader');
  const writer = await managementKey('Writer');
  const until = performance.now() + OUTAGE_MS;
  const reads: Answer[] = [];
  const patches: (Answer & { value: number })[] = [];
  const readLoop = async (first: number) => {
    for (let i = first; performance.now() < until && i < 10_000; i += 2) {
      const answer = await send(instances[i % 2] as Instance, 'GET', `/api/v1/keys/${reader.hash}`, reader.raw);
      reads.push({ instance: i % 2, status: answer.status, ms: answer.ms });
    }
  };
  const patchLoop = async () => {
    for (let i = 1; performance.now() < until && i < 10_000; i++) {
      const value = i / 10_000;
      const path = `/api/v1/observability/destinations/${destinationId}`;
      const answer = await send(instances[i % 2] as Instance, 'PATCH', path, writer.raw, { sampling_rate: value });
      patches.push({ instance: i % 2, status: answer.status, ms: answer.ms, value });
    }
  };
  await Promise.all([readLoop(0), readLoop(1), patchLoop()]);
  return { reads, patches };
}

/** What the answers of one role on one instance must be: each 200 up to the fallback's limit, 429 past it. */
function expectFallbackLimit(answers: Answer[], instance: number) {
  const statuses = answers.filter((answer) => answer.instance === instance).map((answer) => answer.status);
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
  expect(statuses.filter((status) => status === 200)).toHaveLength(Math.min(statuses.length, LIMIT));
}

/** Polls each instance with a key of its own until it says the counts are shared again. */
async function untilShared(from: number[]) {
  const key = await managementKey('Poller');
  for (const [i, instance] of instances.entries()) {
    await expect
      .poll(
        async () => {
          await send(instance, 'GET', `/api/v1/keys/${key.hash}`, key.raw);
          return linesWith(instance, SHARED_MESSAGE, from[i]).length;
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBe(1);
  }
}

/** A fresh key sent LIMIT + 10 requests over both instances in turn: LIMIT served, then 429 from both. */
async function expectSharedLimit() {
  const key = await managementKey('Shared');
  const statuses: number[] = [];
  for (let i = 0; i < LIMIT + 10; i++)
    statuses.push((await send(instances[i % 2] as Instance, 'GET', `/api/v1/keys/${key.hash}`, key.raw)).status);
  expect(statuses.slice(0, LIMIT).filter((status) => status !== 200)).toEqual([]);
  expect(statuses.slice(LIMIT)).toEqual(Array.from({ length: 10 }, () => 429));
}

/** The destination as stored: a PATCH without fields changes nothing and answers it. */
async function storedSamplingRate(): Promise<number> {
  const key = await managementKey('Checker');
  const answer = await send(
    instances[0] as Instance,
    'PATCH',
    `/api/v1/observability/destinations/${destinationId}`,
    key.raw,
    {},
  );
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { data: { sampling_rate: number } }).data.sampling_rate;
}

/** The outage's checks: waits, statuses, the last acknowledged PATCH stored, the log lines, the metric. */
async function expectServedThrough(answers: Awaited<ReturnType<typeof load>>, from: number[], label: string) {
  const all = [...answers.reads, ...answers.patches];
  const slowest = Math.max(...all.map((answer) => answer.ms));
  const slowestOf = (role: Answer[]) => Math.round(Math.max(...role.map((answer) => answer.ms)));
  console.log(
    `${label}: ${all.length} requests in ${OUTAGE_MS} ms, slowest ${slowestOf(answers.reads)} ms (getKey), ${slowestOf(answers.patches)} ms (PATCH)`,
  );
  expect(slowest).toBeLessThan(MAX_WAIT_MS);
  for (const instance of [0, 1]) {
    expectFallbackLimit(answers.reads, instance);
    expectFallbackLimit(answers.patches, instance);
  }
  const acknowledged = answers.patches.filter((answer) => answer.status === 200);
  expect(acknowledged.length).toBeGreaterThan(0);
  expect(await storedSamplingRate()).toBe(acknowledged.at(-1)?.value);
  for (const [i, instance] of instances.entries()) {
    expect(linesWith(instance, FALLBACK_MESSAGE, from[i])).toHaveLength(1);
    const counted = all.filter((answer) => answer.instance === i).length;
    expect(await fallbackCount(instance, 'rate_limit')).toBeGreaterThanOrEqual(counted);
  }
}

describe.skipIf(!redisUrl)(`a Redis outage${redisUrl ? '' : ' (skipped: TEST_REDIS_URL is not set)'}`, () => {
  const env = () => ({
    DATABASE_URL: databaseUrl,
    SECRETS_KEY: secretsKey.toString('base64'),
    REDIS_URL: proxy.url(redisUrl ?? ''),
    REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
    RATE_LIMIT_MAX: String(LIMIT),
    RATE_LIMIT_WINDOW_MS: '60000',
    AUTH_FAILURE_LIMIT: String(AUTH_FAILURE_LIMIT),
    // Failed authentications are counted by the address X-Forwarded-For gives: one of its own per test.
    TRUST_PROXY: 'loopback',
  });

  beforeAll(async () => {
    databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'redis-outage-')), 'api.db')}`;
    secretsKey = randomBytes(32);
    store = await openStore(databaseUrl, createSecretBox(secretsKey));
    const now = new Date();
    workspaceId = (await store.workspaces.create('Outage', now)).id;
    destinationId = (
      await provision.createDestination(
        store,
        { workspaceId, type: 'otel-collector', config: { endpoint: 'https://otel.example.com' } },
        now,
      )
    ).id;
    const redis = new URL(redisUrl ?? '');
    proxy = new TcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    await proxy.start();
    // One after the other: the first migrates the database file.
    for (let i = 0; i < 2; i++) instances.push(await startInstance(env()));
  }, 60_000);

  afterEach(async () => {
    // A test that failed half-way leaves Redis reachable and prompt for the next.
    proxy.delay(0);
    await proxy.stop();
    await proxy.start();
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    instances = [];
    await proxy?.stop();
    await store?.close();
  });

  it(`Redis refusing for ${OUTAGE_MS / 1000} s: no wait, 200 or the fallback's 429, then the shared limit again`, async () => {
    await expectSharedLimit();
    const from = instances.map((instance) => instance.lines.length);
    await proxy.stop();
    const answers = await load();

    // Failed authentications of one address: the full limit in each instance.
    const address = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
    for (const instance of instances) {
      const statuses: number[] = [];
      for (let i = 0; i < AUTH_FAILURE_LIMIT + 2; i++) {
        const bad = `sk-or-v1-${randomBytes(32).toString('hex')}`;
        statuses.push(
          (await send(instance, 'GET', '/api/v1/keys/x', bad, undefined, { 'x-forwarded-for': address })).status,
        );
      }
      expect(statuses).toEqual([...Array(AUTH_FAILURE_LIMIT).fill(401), 429, 429]);
      expect(await fallbackCount(instance, 'auth_failures')).toBeGreaterThanOrEqual(AUTH_FAILURE_LIMIT + 2);
    }

    await expectServedThrough(answers, from, 'Redis refusing');
    await proxy.start();
    await untilShared(from);
    await expectSharedLimit();
  }, 60_000);

  it('Redis answering 2 s late: each count waits the timeout only, then the shared limit again', async () => {
    const from = instances.map((instance) => instance.lines.length);
    proxy.delay(2_000);
    const answers = await load();
    await expectServedThrough(answers, from, 'Redis 2 s late');
    proxy.delay(0);
    await untilShared(from);
    await expectSharedLimit();
  }, 60_000);

  it('a server started while Redis is unreachable starts, says so in one line, and serves on the fallback', async () => {
    await proxy.stop();
    const started = performance.now();
    const late = await startInstance(env());
    try {
      console.log(`started without Redis in ${Math.round(performance.now() - started)} ms`);
      const said = linesWith(late, FALLBACK_MESSAGE);
      expect(said).toHaveLength(1);
      expect(JSON.parse(said[0] ?? '{}')).toMatchObject({
        level: 40,
        cause: 'at start: connection down (ECONNREFUSED)',
      });
      const key = await managementKey('Early');
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 2; i++)
        statuses.push((await send(late, 'GET', `/api/v1/keys/${key.hash}`, key.raw)).status);
      expect(statuses.slice(0, LIMIT).filter((status) => status !== 200)).toEqual([]);
      expect(statuses.slice(LIMIT)).toEqual([429, 429]);
      expect(linesWith(late, FALLBACK_MESSAGE)).toHaveLength(1);

      await proxy.start();
      await expect
        .poll(
          async () => {
            await send(late, 'GET', `/api/v1/keys/${key.hash}`, key.raw);
            return linesWith(late, SHARED_MESSAGE).length;
          },
          { timeout: 10_000, interval: 100 },
        )
        .toBe(1);
    } finally {
      await late.stop();
    }
  }, 60_000);
});
