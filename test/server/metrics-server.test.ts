// The metrics' own port (METRICS_PORT): GET and HEAD /metrics in Prometheus's text format, a plain
// 404 or 405 for anything else, a 500 when the metrics cannot be read, and never the API's port.
import { Gauge, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../server/metrics/metrics.js';
import { listenForMetrics, type MetricsServer } from '../../server/metrics/metrics-server.js';
import { call } from '../support/server.js';
import { spec } from '../support/spec.js';
import { useTestServer } from '../support/use-test-server.js';

const PLAIN_TEXT = 'text/plain; charset=utf-8';

describe('the metrics server', () => {
  const api = useTestServer({ metrics: true });
  let metrics: MetricsServer;
  const metricsUrl = (target: string) => `http://127.0.0.1:${metrics.port}${target}`;

  beforeAll(async () => {
    const registry = api.metrics?.registry ?? createMetrics(spec).registry;
    metrics = await listenForMetrics(registry, '127.0.0.1', 0);
  });

  afterAll(async () => {
    await metrics.close();
  });

  it('serves GET /metrics in the Prometheus text format, after a request it counts', async () => {
    await call(api, 'GET', '/healthz');
    const response = await fetch(metricsUrl('/metrics'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toContain('http_requests_total{operation="none",status="200"} 1');
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
  });

  it('serves /metrics whatever its query string, and HEAD /metrics with the headers of GET', async () => {
    const withQuery = await fetch(metricsUrl('/metrics?name[]=http_requests_total'));
    expect(withQuery.status).toBe(200);
    expect(await withQuery.text()).toContain('# TYPE http_requests_total counter');
    const head = await fetch(metricsUrl('/metrics'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('answers 404 in plain text to any other path, and 405 with Allow to any other method', async () => {
    const elsewhere = await fetch(metricsUrl('/metrics/'));
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.headers.get('content-type')).toBe(PLAIN_TEXT);
    expect(await elsewhere.text()).toBe('Only /metrics is served here.\n');
    const post = await fetch(metricsUrl('/metrics'), { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.headers.get('content-type')).toBe(PLAIN_TEXT);
    expect(await post.text()).toBe('');
  });

  it('is not served on the API port', async () => {
    const onApi = await call(api, 'GET', '/metrics');
    expect(onApi.status).toBe(404);
    expect(onApi.body).toMatchObject({ error: { code: 404 } });
  });

  it('says which variable to change when its port is taken', async () => {
    await expect(listenForMetrics(createMetrics(spec).registry, '127.0.0.1', metrics.port)).rejects.toMatchObject({
      code: 'EADDRINUSE',
      setting: 'METRICS_PORT',
    });
  });
});

describe('a metric that cannot be read', () => {
  it('gives a 500 in plain text, and the next scrape is answered again', async () => {
    const registry = new Registry();
    let readable = false;
    new Gauge({
      name: 'flaky_reading',
      help: 'A gauge whose reading fails until it is told not to.',
      registers: [registry],
      collect() {
        if (!readable) throw new Error('not readable');
        this.set(1);
      },
    });
    const metrics = await listenForMetrics(registry, '127.0.0.1', 0);
    try {
      const failed = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
      expect(failed.status).toBe(500);
      expect(failed.headers.get('content-type')).toBe(PLAIN_TEXT);
      expect(await failed.text()).toBe('The metrics could not be read.\n');
      readable = true;
      const read = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
      expect(await read.text()).toContain('flaky_reading 1');
    } finally {
      await metrics.close();
    }
  });
});
