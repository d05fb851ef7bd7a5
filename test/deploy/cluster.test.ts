// `npm run cluster`, as "Running in production" in the README runs it: three instances on
// PostgreSQL and Redis behind HAProxy. Under constant load, each instance is stopped in turn with
// SIGTERM and started again: no request fails and every acknowledged PATCH is stored. Then the
// limits hold across the instances, whichever answers: a key gets exactly its limit served, and so
// does each client address its failed authentications (TRUST_PROXY reads HAProxy's X-Forwarded-For).
// Stopped, or failing at start, it leaves no temporary folder behind.
// Needs TEST_POSTGRES_URL, TEST_REDIS_URL and HAProxy; CI has all three and fails without them.
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_INTERVAL_MS, CHECK_RISE } from '../../deploy/haproxy-config.js';
import type { components } from '../../generated/api.js';
import { httpChecks } from '../../scripts/conformance/http-checks.js';
import { collectOutput } from '../../scripts/shared/child-process.js';
import { hashApiKey } from '../../server/domain/api-keys.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { openStore } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase } from '../support/database.js';
import { startOtlpReceiver } from '../support/otlp-receiver.js';
import { projectRoot } from '../support/process.js';
import { provision } from '../support/server.js';

const postgres = process.env.TEST_POSTGRES_URL;
const redis = process.env.TEST_REDIS_URL;
const haproxy = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).error === undefined;
const missing = [!postgres && 'TEST_POSTGRES_URL', !redis && 'TEST_REDIS_URL', !haproxy && 'haproxy'].filter(Boolean);
const NOW = new Date();
const LOOPS = 6;
const LIMIT = 30;
const AUTH_FAILURE_LIMIT = 10;

interface Cluster {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: () => string;
  /** The pid of each instance, by name, as last started. */
  pids: Map<string, number>;
  /** The cluster's temporary folders (one while it runs, none once it has stopped). */
  folders(): string[];
  /** SIGTERM to all its processes; resolves once every one has exited. */
  stop(): Promise<void>;
  /** Removes the temporary directory the cluster was given. */
  removeTmpdir(): void;
}

/** A temporary directory of the cluster's own (its TMPDIR), and the cluster's folders in it. */
function clusterTmpdir() {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-test-'));
  return {
    TMPDIR: dir,
    folders: () => readdirSync(dir).filter((name) => name.startsWith('cluster-')),
    removeTmpdir: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Whether a process of the group is still running. */
function groupRunning(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `npm run cluster -- --instances 3 --port <port>`, resolved once HAProxy answers. */
async function startCluster(env: Record<string, string>): Promise<Cluster> {
  // Below Linux's ephemeral range (32768 and up), where the kernel hands out the ports of other
  // tests' sockets: the cluster takes port to port + 3, and port + 101 to port + 103 for metrics.
  const port = randomInt(10_000, 32_000);
  const { TMPDIR, folders, removeTmpdir } = clusterTmpdir();
  const child = spawn('npm', ['run', '-s', 'cluster', '--', '--instances', '3', '--port', String(port)], {
    cwd: projectRoot,
    env: { ...process.env, ...env, TMPDIR },
    detached: true,
  });
  let output = '';
  const pids = new Map<string, number>();
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the cluster did not start: ${output}`)), 90_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (const [, name, pid] of output.matchAll(/^cluster: (app\d+) pid (\d+) /gm)) pids.set(name ?? '', Number(pid));
      if (output.includes('behind HAProxy at')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the cluster exited with ${code}: ${output}`)));
  });
  await ready;
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    pids,
    folders,
    removeTmpdir,
    stop: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      process.kill(-(child.pid ?? 0), 'SIGTERM');
      await exited;
      // npm exits at once; the cluster's own process once its instances have drained.
      await expect.poll(() => groupRunning(child.pid ?? 0), { timeout: 30_000 }).toBe(false);
    },
  };
}

async function provisionDatabase(databaseUrl: string, secretsKey: Buffer) {
  const store = await openStore(databaseUrl, createSecretBox(secretsKey));
  const workspace = await store.workspaces.create('Cluster', NOW);
  const key = async (name: string) =>
    (await provision.createKey(store, { workspaceId: workspace.id, name, kind: 'management' }, NOW)).rawKey;
  const loops = [];
  for (let i = 0; i < LOOPS; i++) {
    const destination = await provision.createDestination(
      store,
      { workspaceId: workspace.id, type: 'otel-collector', config: { endpoint: 'https://otel.example.com' } },
      NOW,
    );
    loops.push({ key: await key(`Load ${i}`), destinationId: destination.id });
  }
  const limited = await provision.createKey(
    store,
    { workspaceId: workspace.id, name: 'Limited', kind: 'management' },
    NOW,
  );
  await store.close();
  return { loops, limitedKey: limited.rawKey, limitedHash: limited.hash };
}

/** A GET from a chosen loopback address, so that HAProxy forwards it as that client's. */
function getFrom(
  localAddress: string,
  url: string,
  key: string,
): Promise<{ status: number; servedBy: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, servedBy: res.headers['x-served-by'] as string }));
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(missing.length > 0 && process.env.CI !== 'true')(
  `npm run cluster behind HAProxy${missing.length > 0 ? ` (skipped: ${missing.join(', ')} missing)` : ''}`,
  () => {
    let database: TestDatabase;
    const secretsKey = randomBytes(32);
    let provisioned: Awaited<ReturnType<typeof provisionDatabase>>;
    const env = () => ({
      DATABASE_URL: database.url,
      REDIS_URL: redis ?? '',
      SECRETS_KEY: secretsKey.toString('base64'),
    });

    beforeAll(async () => {
      expect(missing, 'what the cluster test needs').toEqual([]);
      database = await createPostgresDatabase();
      provisioned = await provisionDatabase(database.url, secretsKey);
    }, 60_000);

    afterAll(async () => {
      await database?.drop();
    });

    it('loses no request and stores every acknowledged PATCH while each instance restarts in turn', async () => {
      const cluster = await startCluster({ ...env(), RATE_LIMIT_MAX: '1000000' });
      try {
        const failures: string[] = [];
        const acknowledged = new Map<string, number>();
        let requests = 0;
        let loading = true;
        const loop = async ({ key, destinationId }: { key: string; destinationId: string }, n: number) => {
          const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
          for (let i = 1; loading; i++) {
            // Distinct per loop and request, within the schema's 0.0001 to 1.
            const rate = (1000 + n * 100_000 + i) / 1_000_000;
            const patch = i % 2 === 0;
            try {
              const response = patch
                ? await fetch(`${cluster.url}/api/v1/observability/destinations/${destinationId}`, {
                    method: 'PATCH',
                    headers,
                    body: JSON.stringify({ sampling_rate: rate }),
                  })
                : await fetch(`${cluster.url}/api/v1/keys/${provisioned.limitedHash}`, { headers });
              await response.arrayBuffer();
              requests += 1;
              if (response.status !== 200) failures.push(`${patch ? 'PATCH' : 'GET'} ${response.status}`);
              else if (patch) acknowledged.set(destinationId, rate);
            } catch (err) {
              failures.push(`${patch ? 'PATCH' : 'GET'} ${(err as Error).cause ?? (err as Error).message}`);
            }
          }
        };
        const load = Promise.all(provisioned.loops.map((l, n) => loop(l, n)));
        await sleep(1000);
        for (const name of ['app1', 'app2', 'app3']) {
          const pid = cluster.pids.get(name) ?? 0;
          process.kill(pid, 'SIGTERM');
          const deadline = Date.now() + 30_000;
          while (cluster.pids.get(name) === pid && Date.now() < deadline) await sleep(50);
          expect(cluster.pids.get(name), `${name} started again`).not.toBe(pid);
          // Ready, then marked up by HAProxy, before the next one stops.
          const listening = () => new RegExp(`"pid":${cluster.pids.get(name)},[^\\n]*"msg":"listening"`);
          await expect.poll(() => listening().test(cluster.output()), { timeout: 20_000 }).toBe(true);
          await sleep(CHECK_INTERVAL_MS * (CHECK_RISE + 2) + 2000);
        }
        loading = false;
        await load;
        expect(failures).toEqual([]);
        expect(requests).toBeGreaterThan(200);
        expect(cluster.folders()).toHaveLength(1);
        for (const { key, destinationId } of provisioned.loops) {
          const stored = await fetch(`${cluster.url}/api/v1/observability/destinations/${destinationId}`, {
            method: 'PATCH',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: '{}',
          });
          const { data } = (await stored.json()) as components['schemas']['ObservabilityDestinationResponse'];
          expect(data.sampling_rate).toBe(acknowledged.get(destinationId));
        }
        // The HTTP beneath the contract holds behind HAProxy too: what `npm run conformance -- --negative` checks of it.
        const [first] = provisioned.loops;
        const http = await httpChecks(
          {
            baseUrl: `${cluster.url}/api/v1`,
            key: first?.key ?? '',
            destination: first?.destinationId ?? '',
            seed: 1,
            requests: 1,
            negative: true,
          },
          hashApiKey(first?.key ?? ''),
        );
        expect(http.length).toBeGreaterThan(5);
        expect(
          http.filter((outcome) => outcome.problems.length > 0).map((o) => `${o.request.label}: ${o.problems}`),
        ).toEqual([]);
      } finally {
        await cluster.stop();
      }
      expect(cluster.folders()).toEqual([]);
      cluster.removeTmpdir();
    }, 180_000);

    it('stops, exit 1, and leaves no temporary folder when an instance cannot start', async () => {
      const { TMPDIR, folders, removeTmpdir } = clusterTmpdir();
      const port = String(randomInt(20_000, 40_000));
      const child = spawn('npm', ['run', '-s', 'cluster', '--', '--instances', '2', '--port', port], {
        cwd: projectRoot,
        // Nothing listens on port 1: the first instance cannot open its database.
        env: { ...process.env, ...env(), DATABASE_URL: 'postgres://postgres@127.0.0.1:1/api', TMPDIR },
      });
      const { code, stdout, stderr } = await collectOutput(child);
      expect(code, stdout + stderr).toBe(1);
      expect(stderr).toContain('cluster: app1 did not become ready');
      expect(stdout).toContain('cluster: app1 pid ');
      expect(folders()).toEqual([]);
      removeTmpdir();
    }, 60_000);

    it('serves a key exactly its limit, and each address exactly its failed authentications, across instances', async () => {
      const receiver = await startOtlpReceiver();
      const cluster = await startCluster({
        ...env(),
        RATE_LIMIT_MAX: String(LIMIT),
        RATE_LIMIT_WINDOW_MS: '60000',
        AUTH_FAILURE_LIMIT: String(AUTH_FAILURE_LIMIT),
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '50',
      });
      try {
        const url = `${cluster.url}/api/v1/keys/${provisioned.limitedHash}`;
        const answers = [];
        for (let i = 0; i < 2 * LIMIT; i++) answers.push(await getFrom('127.0.0.1', url, provisioned.limitedKey));
        expect(answers.filter((answer) => answer.status === 200)).toHaveLength(LIMIT);
        expect(answers.filter((answer) => answer.status === 429)).toHaveLength(LIMIT);
        expect(new Set(answers.map((answer) => answer.servedBy))).toEqual(new Set(['app1', 'app2', 'app3']));

        // Two clients of their own (fresh addresses: the counters of an earlier run live a minute).
        const clients = [1, 2].map(() => `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}`);
        for (const client of clients) {
          const statuses = [];
          for (let i = 0; i < 2 * AUTH_FAILURE_LIMIT; i++)
            statuses.push((await getFrom(client, url, `sk_${randomBytes(8).toString('hex')}`)).status);
          expect(statuses, client).toEqual([
            ...Array(AUTH_FAILURE_LIMIT).fill(401),
            ...Array(AUTH_FAILURE_LIMIT).fill(429),
          ]);
        }

        // A caller's trace goes through HAProxy to the instance that serves it, whose span says
        // which it is; the key is past its limit, so the count in Redis is what refused it.
        const traceId = randomBytes(16).toString('hex');
        const parentId = randomBytes(8).toString('hex');
        const traced = await fetch(url, {
          headers: { authorization: `Bearer ${provisioned.limitedKey}`, traceparent: `00-${traceId}-${parentId}-01` },
        });
        expect(traced.status).toBe(429);
        // The request's span and its count in Redis (its key's lookup too, unless the instance holds the key).
        const spansOfTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
        await expect
          .poll(
            () =>
              spansOfTrace().some((span) => span.parentSpanId === parentId) &&
              spansOfTrace().some((span) => span.attributes['db.system.name'] === 'redis'),
            { timeout: 10_000 },
          )
          .toBe(true);
        const spans = spansOfTrace();
        const root = spans.find((span) => span.parentSpanId === parentId);
        expect(root?.name).toBe('GET /api/v1/keys/{hash}');
        expect(root?.attributes['api.refused_by']).toBe('rate limit');
        expect(root?.resource['service.instance.id']).toMatch(/^127\.0\.0\.1:\d+$/);
        const redisSpan = spans.find((span) => span.attributes['db.system.name'] === 'redis');
        expect(redisSpan?.name).toBe('rate limit per-key');
        expect(redisSpan?.parentSpanId).toBe(root?.spanId);
      } finally {
        await cluster.stop();
        await receiver.close();
      }
      expect(cluster.folders()).toEqual([]);
      cluster.removeTmpdir();
    }, 120_000);
  },
);
