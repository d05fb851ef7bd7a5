// The Prometheus metrics (METRICS_PORT): scraped after known traffic, they count it exactly; their
// label values are the contract's operationIds and a fixed set of statuses whatever a client sends.
// Their own port is tested in test/server/metrics-server.test.ts.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { type AddressInfo, connect } from 'node:net';
import express from 'express';
import pino from 'pino';
import type { Registry } from 'prom-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { warmUp } from '../../server/http/warm-up.js';
import { requestLog } from '../../server/logging/request-log.js';
import { createMetrics } from '../../server/metrics/metrics.js';
import { specOperations } from '../../server/spec.js';
import type { PoolFigures } from '../../server/store/store.js';
import { call, provision, type TestServer } from '../support/server.js';
import { spec } from '../support/spec.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const operationIds = specOperations(spec).map(({ operation }) => operation.operationId);

interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

async function samples(registry: Registry | undefined, name: string): Promise<Sample[]> {
  return ((await registry?.getSingleMetric(name)?.get())?.values ?? []) as Sample[];
}

async function metricValue(
  server: TestServer,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  return (await samples(server.metrics?.registry, name)).find((sample) =>
    Object.entries(labels).every(([label, value]) => String(sample.labels[label]) === value),
  )?.value;
}

describe('the metrics, after known traffic', () => {
  const server = useTestServer({
    metrics: true,
    rateLimit: { windowMs: 60_000, limit: 4 },
    authFailureLimit: { windowMs: 60_000, limit: 2 },
  });
  const workspace = useWorkspace(server);
  let trafficStartedAt: number;

  beforeAll(async () => {
    trafficStartedAt = performance.now();
    const getKey = (hash: string, key = workspace.managementKey) =>
      call(server, 'GET', `/api/v1/keys/${hash}`, { key });
    expect((await getKey(workspace.standardKeyHash)).status).toBe(200);
    expect((await getKey(workspace.standardKeyHash)).status).toBe(200);
    expect((await getKey('0'.repeat(64))).status).toBe(404);
    expect((await call(server, 'GET', '/api/v1/presets/none/versions', { key: workspace.managementKey })).status).toBe(
      404,
    );
    // The fifth request of the key in its window: refused by the per-key limit.
    expect((await getKey(workspace.standardKeyHash)).status).toBe(429);
    // Failed authentications from this address: two answered 401, the third refused.
    for (const status of [401, 401, 429])
      expect((await getKey(workspace.standardKeyHash, 'sk_bad')).status).toBe(status);
    expect((await call(server, 'GET', '/healthz')).status).toBe(200);
    expect((await call(server, 'GET', '/no-such-page')).status).toBe(404);
  }, 60_000);

  it('counts requests by operationId and status', async () => {
    const requests = async (operation: string, status: string) =>
      metricValue(server, 'http_requests_total', { operation, status });
    expect(await requests('getKey', '200')).toBe(2);
    expect(await requests('getKey', '404')).toBe(1);
    expect(await requests('getKey', '429')).toBe(2);
    expect(await requests('getKey', '401')).toBe(2);
    expect(await requests('listPresetVersions', '404')).toBe(1);
    expect(await requests('none', '200')).toBe(1);
    expect(await requests('none', '404')).toBe(1);
    expect(
      (await samples(server.metrics?.registry, 'http_requests_total')).reduce((sum, sample) => sum + sample.value, 0),
    ).toBe(10);
  });

  it('times each request in a histogram by operationId', async () => {
    expect(await metricValue(server, 'http_request_duration_seconds', { operation: 'getKey', le: '+Inf' })).toBe(7);
    const sum = (await samples(server.metrics?.registry, 'http_request_duration_seconds')).find(
      (sample) => sample.metricName === 'http_request_duration_seconds_sum' && sample.labels.operation === 'getKey',
    );
    expect(sum?.value).toBeGreaterThan(0);
    // In seconds: the seven requests together took less than the whole test so far.
    expect(sum?.value).toBeLessThan((performance.now() - trafficStartedAt) / 1000);
  });

  it('counts the refusals of the rate limit and of the failed-authentication throttle', async () => {
    expect(await metricValue(server, 'http_refusals_total', { reason: 'rate_limit' })).toBe(1);
    expect(await metricValue(server, 'http_refusals_total', { reason: 'auth_failures' })).toBe(1);
  });

  it('shows a request in flight while its body is still arriving, and none once it is answered', async () => {
    expect(await metricValue(server, 'http_requests_in_flight', {})).toBe(0);
    // A key of its own: the workspace's has used up its requests.
    const key = await provision.createKey(
      server.store,
      { workspaceId: workspace.id, name: 'Slow', kind: 'management' },
      server.clock.now(),
    );
    const { hostname, port } = new URL(server.baseUrl);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    const body = '{"sampling_rate": 0.5}';
    socket.write(
      `PATCH /api/v1/observability/destinations/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key.rawKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
    );
    await expect.poll(() => metricValue(server, 'http_requests_in_flight', {})).toBe(1);
    const answered = once(socket, 'end');
    socket.resume();
    socket.write(body.slice(5));
    await answered;
    await expect.poll(() => metricValue(server, 'http_requests_in_flight', {})).toBe(0);
  });

  it('counts a request whose client leaves before the answer as aborted, and no longer in flight', async () => {
    const key = await provision.createKey(
      server.store,
      { workspaceId: workspace.id, name: 'Gone', kind: 'management' },
      server.clock.now(),
    );
    const aborted = () =>
      metricValue(server, 'http_requests_total', { operation: 'updateObservabilityDestination', status: 'aborted' });
    expect(await aborted()).toBeUndefined();
    const { hostname, port } = new URL(server.baseUrl);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    socket.write(
      `PATCH /api/v1/observability/destinations/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key.rawKey}\r\nContent-Type: application/json\r\nContent-Length: 22\r\n\r\n{"samp`,
    );
    await expect.poll(() => metricValue(server, 'http_requests_in_flight', {})).toBe(1);
    socket.destroy();
    await expect.poll(aborted).toBe(1);
    expect(await metricValue(server, 'http_requests_in_flight', {})).toBe(0);
  });

  it("has the process's default metrics, and no pool figures on SQLite", async () => {
    expect(await metricValue(server, 'process_cpu_user_seconds_total', {})).toBeGreaterThan(0);
    expect(await samples(server.metrics?.registry, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
    expect(await samples(server.metrics?.registry, 'db_pool_connections')).toEqual([]);
  });
});

describe('the status label', () => {
  it("is a status's class when neither the spec nor the server names it, summed over the statuses of the class", async () => {
    const metrics = createMetrics(spec);
    const app = express();
    app.use(requestLog(pino({ level: 'silent' }), { observer: metrics.observer }));
    app.get('/status/:status', (req, res) => {
      res.status(Number(req.params.status)).end();
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      for (const status of [418, 418, 451, 299, 404])
        expect((await fetch(`http://127.0.0.1:${port}/status/${status}`)).status).toBe(status);
      const values = await samples(metrics.registry, 'http_requests_total');
      expect(values.map(({ labels, value }) => [labels.operation, labels.status, value])).toEqual(
        expect.arrayContaining([
          ['none', '4xx', 3],
          ['none', '2xx', 1],
          ['none', '404', 1],
        ]),
      );
      expect(values).toHaveLength(3);
    } finally {
      server.close();
    }
  });
});

describe("the server's own requests and the pool", () => {
  it('does not count the warm-up requests made at start, and counts the first request after them', async () => {
    const metrics = createMetrics(spec);
    const app = express();
    app.use(requestLog(pino({ level: 'silent' }), { observer: metrics.observer }));
    app.use((_req, res) => {
      res.status(404).end();
    });
    await warmUp(app, spec);
    const counted = async () => (await samples(metrics.registry, 'http_requests_total')).map((sample) => sample.value);
    expect(await counted()).toEqual([]);
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await expect.poll(counted).toEqual([1]);
    } finally {
      server.close();
    }
  });

  it('has both refusal reasons at 0 before any refusal, so that their rates exist from the start', async () => {
    const { registry } = createMetrics(spec);
    const values = await samples(registry, 'http_refusals_total');
    expect(values.map(({ labels, value }) => [labels.reason, value])).toEqual([
      ['rate_limit', 0],
      ['auth_failures', 0],
    ]);
  });

  it('has every span outcome at 0 before any span, and adds what each count says', async () => {
    const metrics = createMetrics(spec);
    const spans = async () =>
      (await samples(metrics.registry, 'trace_spans_total')).map(({ labels, value }) => [labels.outcome, value]);
    expect(await spans()).toEqual([
      ['exported', 0],
      ['queue_full', 0],
      ['export_failed', 0],
    ]);
    metrics.spans('exported', 3);
    metrics.spans('queue_full', 2);
    metrics.spans('exported', 1);
    expect(await spans()).toEqual([
      ['exported', 4],
      ['queue_full', 2],
      ['export_failed', 0],
    ]);
    await expect(metrics.registry.metrics()).resolves.toContain('trace_spans_total{outcome="exported"} 4');
  });

  it("gives the database pool's figures while the pool has them, and scrapes without them once it is gone", async () => {
    let figures: PoolFigures | undefined = { total: 4, idle: 1, waiting: 2, max: 10 };
    const { registry } = createMetrics(spec, () => figures);
    const values = async (name: string) =>
      (await samples(registry, name)).map(({ labels, value }) => [labels.state, value]);
    expect(await values('db_pool_connections')).toEqual([
      ['total', 4],
      ['idle', 1],
      ['waiting', 2],
    ]);
    expect(await values('db_pool_max_connections')).toEqual([[undefined, 10]]);
    figures = undefined;
    await expect(registry.metrics()).resolves.toContain('db_pool_max_connections 0');
  });
});

describe('the metrics under hostile traffic', () => {
  const server = useTestServer({ metrics: true });
  const workspace = useWorkspace(server);

  it('label nothing a client picks: 300 requests of random paths, methods, headers and keys make no new series', async () => {
    const methods = ['GET', 'PATCH', 'POST', 'DELETE', 'OPTIONS', 'PUT'];
    const random = () => randomBytes(6).toString('hex');
    for (let i = 0; i < 300; i++) {
      const paths = [
        `/api/v1/keys/${random()}`,
        `/api/v1/${random()}`,
        `/${random()}`,
        `/api/v1/presets/${random()}/versions?${random()}=1`,
        `/api/v1/observability/destinations/${random()}`,
      ];
      await call(server, methods[i % methods.length] ?? 'GET', paths[i % paths.length] ?? '/', {
        key: i % 3 === 0 ? workspace.managementKey : `sk_${random()}`,
        headers: { [`x-${random()}`]: random(), 'x-request-id': random() },
      });
    }
    const series = await samples(server.metrics?.registry, 'http_requests_total');
    for (const { labels } of series) {
      expect([...operationIds, 'none']).toContain(labels.operation);
      expect(String(labels.status)).toMatch(/^(\d{3}|[1-5]xx|aborted)$/);
    }
    // Bounded by the server's own values: three operations and "none", by a dozen statuses at most.
    expect(series.length).toBeLessThanOrEqual((operationIds.length + 1) * 12);
    expect((await samples(server.metrics?.registry, 'http_request_duration_seconds')).length).toBeLessThanOrEqual(
      (operationIds.length + 1) * 15,
    );
  }, 60_000);
});
