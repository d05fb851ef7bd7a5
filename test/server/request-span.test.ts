// The spans of a sampled request, made in the test's own process (server/telemetry/request-span.ts):
// the server span's name, parent and attributes, its statements and counts as children, the
// caller's trace continued, and its errors. Which check a span names as refusing a request is in
// request-span-refusals.test.ts; samplers and what becomes of the spans in server-tracing.test.ts;
// what only a process shows (settings from its environment, the flush at SIGTERM) in tracing.test.ts.
import express from 'express';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import type { CounterFactory } from '../../server/rate-limit/rate-limit.js';
import { type OpenApiDocument, specOperation } from '../../server/spec.js';
import type { QueryDriver } from '../../server/store/prepared.js';
import { testDatabaseKind } from '../support/database.js';
import { listenOnLoopback } from '../support/listen.js';
import { createTestDestination, spec } from '../support/server.js';
import {
  callerTrace,
  hex,
  logLineOf,
  NOT_SAMPLED,
  pathOf,
  SAMPLED,
  SPAN_KIND_CLIENT,
  STATUS_ERROR,
  STATUS_UNSET,
  send,
  serverSpanOf,
  spansOf,
  tracedServer,
  useTracedServers,
  withPageOfVersions,
} from '../support/traced-test-server.js';

useTracedServers();

describe('a sampled request', () => {
  it('is one server span named by its route, the caller its parent, its statements its children', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' });
    const { workspace } = traced;
    const caller = callerTrace();
    const requestId = `span-${hex(4)}`;
    const response = await send(traced, 'GET', pathOf('getKey', { hash: workspace.standardKeyHash }), {
      key: workspace.managementKey,
      traceparent: caller.traceparent,
      requestId,
    });
    expect(response.status).toBe(200);

    const spans = await spansOf(traced.receiver, caller.traceId);
    const server = serverSpanOf(spans);
    expect(server.name).toBe(`GET /api/v1${specOperation(spec, 'getKey').template}`);
    expect(server.parentSpanId).toBe(caller.spanId);
    expect(server.statusCode).toBe(STATUS_UNSET);
    expect(server.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'http.route': `/api/v1${specOperation(spec, 'getKey').template}`,
      'api.operation_id': 'getKey',
      'api.workspace_id': workspace.id,
    });
    expect(server.attributes['api.validator.duration_ms']).toBeGreaterThan(0);
    expect(server.attributes).not.toHaveProperty('api.refused_by');
    expect(server.attributes).not.toHaveProperty('error.type');
    expect(server.resource).toMatchObject({ 'service.version': spec.info.version });
    for (const span of spans) expect(span.scope).toBe('keys-destinations-presets-api');

    const children = spans.filter((span) => span.kind === SPAN_KIND_CLIENT);
    expect(children.length).toBeGreaterThan(0);
    for (const child of children) {
      expect(child.parentSpanId).toBe(server.spanId);
      expect(child.spanId).not.toBe(server.spanId);
      expect(child.attributes['db.system.name']).toBe(testDatabaseKind === 'postgres' ? 'postgresql' : 'sqlite');
      expect(child.statusCode).toBe(STATUS_UNSET);
      // Named by its store and query, as `keys.byHash`.
      expect(child.name).toMatch(/^[a-z]+\.[A-Za-z]+$/);
    }
    expect(new Set(children.map((child) => child.spanId)).size).toBe(children.length);

    expect(logLineOf(traced.server, requestId)).toMatchObject({ trace_id: caller.traceId, span_id: server.spanId });
    const exported = traced.receiver.bodies.join('\n');
    for (const secret of [workspace.managementKey, workspace.standardKey, workspace.standardKeyHash])
      expect(exported).not.toContain(secret);
  });

  it('has a PATCH read and write its row as one call, and each count of the rate limit as one', async () => {
    const inMemory: CounterFactory = (limit) => {
      const limiter = new RateLimiterMemory(limit);
      return { consume: (key) => limiter.consume(key) };
    };
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' }, {}, { counters: inMemory });
    const destinationPath = await createTestDestination(traced.server, traced.workspace);
    const caller = callerTrace();
    const response = await send(traced, 'PATCH', destinationPath, {
      key: traced.workspace.managementKey,
      traceparent: caller.traceparent,
      body: { sampling_rate: 0.25 },
    });
    expect(response.status).toBe(200);
    const children = (await spansOf(traced.receiver, caller.traceId)).filter((span) => span.kind === SPAN_KIND_CLIENT);
    const writes = children.filter((span) => span.attributes['db.operation.name'] === 'read-modify-write');
    expect(writes).toHaveLength(1);
    const summary = String(writes[0]?.attributes['db.query.summary']);
    expect(summary).toMatch(/^destinations\./);
    expect(writes[0]?.name).toBe(`${summary} then write`);
    expect(writes[0]?.attributes['db.system.name']).toBe(testDatabaseKind === 'postgres' ? 'postgresql' : 'sqlite');
    const counts = children.filter((span) => span.attributes['db.operation.name'] === 'consume');
    expect(counts.length).toBeGreaterThan(0);
    for (const count of counts) {
      expect(count.name).toMatch(/^rate limit \S+$/);
      expect(count.attributes['db.system.name']).toBe('redis');
    }
  });

  it('times a stage of one handler from its start to its hand-on, not to the answer', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' });
    const { requests, timed } = traced.tracing.requests;
    const answerAfterMs = 50;
    const app = express()
      .use(requests({ probePaths: [] }))
      .use(timed('probe', [(_req, _res, next) => next()]))
      .use((_req, res) => void setTimeout(() => res.status(204).end(), answerAfterMs));
    const listening = await listenOnLoopback(app);
    try {
      const caller = callerTrace();
      const response = await fetch(`${listening.baseUrl}/staged`, { headers: { traceparent: caller.traceparent } });
      expect(response.status).toBe(204);
      const server = serverSpanOf(await spansOf(traced.receiver, caller.traceId));
      expect(server.durationMs).toBeGreaterThanOrEqual(answerAfterMs - 1);
      expect(server.attributes['api.probe.duration_ms']).toBeLessThan(answerAfterMs / 2);
    } finally {
      await listening.close();
    }
  });

  it('starts a trace of its own without a traceparent, or with one that is not valid', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' });
    const { workspace } = traced;
    for (const traceparent of [undefined, `00-${'0'.repeat(32)}-${hex(8)}-01`, 'not a traceparent']) {
      const requestId = `root-${hex(4)}`;
      const response = await send(traced, 'GET', pathOf('getKey', { hash: workspace.standardKeyHash }), {
        key: workspace.managementKey,
        requestId,
        ...(traceparent !== undefined && { traceparent }),
      });
      expect(response.status).toBe(200);
      const line = logLineOf(traced.server, requestId);
      expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(line.trace_id).not.toBe('0'.repeat(32));
      const server = serverSpanOf(await spansOf(traced.receiver, String(line.trace_id)));
      expect(server.parentSpanId).toBe('');
      expect(line.span_id).toBe(server.spanId);
    }
  });

  it('carries the caller tracestate on its spans', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' });
    const caller = callerTrace();
    await send(traced, 'GET', pathOf('getKey', { hash: traced.workspace.standardKeyHash }), {
      key: traced.workspace.managementKey,
      traceparent: caller.traceparent,
      tracestate: 'vendor=5f2a',
    });
    const spans = await spansOf(traced.receiver, caller.traceId);
    expect(spans.length).toBeGreaterThan(1);
    for (const span of spans) expect(span.traceState).toBe('vendor=5f2a');
  });

  it('gives the validator a time within the request, and its calls within it too', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' });
    const caller = callerTrace();
    await send(traced, 'GET', pathOf('getKey', { hash: traced.workspace.standardKeyHash }), {
      key: traced.workspace.managementKey,
      traceparent: caller.traceparent,
    });
    const spans = await spansOf(traced.receiver, caller.traceId);
    const server = serverSpanOf(spans);
    const validator = Number(server.attributes['api.validator.duration_ms']);
    expect(validator).toBeGreaterThan(0);
    expect(validator).toBeLessThan(server.durationMs);
    for (const child of spans.filter((span) => span.kind === SPAN_KIND_CLIENT)) {
      expect(child.durationMs).toBeGreaterThan(0);
      expect(child.durationMs).toBeLessThan(server.durationMs);
    }
  });

  it('marks a failed statement with its error class, and the request it failed as an error', async () => {
    class StatementFailed extends Error {
      override name = 'StatementFailed';
    }
    const failing = (driver: QueryDriver): QueryDriver => ({
      ...driver,
      run: (query, trace) => {
        if (query.name.startsWith('presets.')) return Promise.reject(new StatementFailed('the page could not be read'));
        return driver.run(query, trace);
      },
    });
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' }, {}, { driver: failing });
    const caller = callerTrace();
    const response = await send(traced, 'GET', pathOf('listPresetVersions', { slug: 'support-agent' }), {
      key: traced.workspace.managementKey,
      traceparent: caller.traceparent,
    });
    expect(response.status).toBe(500);
    const spans = await spansOf(traced.receiver, caller.traceId);
    expect(serverSpanOf(spans).statusCode).toBe(STATUS_ERROR);
    const failed = spans.filter((span) => span.kind === SPAN_KIND_CLIENT && span.name.startsWith('presets.'));
    expect(failed).toHaveLength(1);
    expect(failed[0]?.statusCode).toBe(STATUS_ERROR);
    expect(failed[0]?.attributes['error.type']).toBe('StatementFailed');
    const passed = spans.filter((span) => span.kind === SPAN_KIND_CLIENT && !span.name.startsWith('presets.'));
    expect(passed.length).toBeGreaterThan(0);
    for (const span of passed) {
      expect(span.statusCode).toBe(STATUS_UNSET);
      expect(span.attributes).not.toHaveProperty('error.type');
    }
  });

  it('is an error, aborted, when the client leaves before the answer', async () => {
    let clientLeft: () => void = () => undefined;
    const left = new Promise<void>((resolve) => {
      clientLeft = resolve;
    });
    let storeReached: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => {
      storeReached = resolve;
    });
    const traced = await tracedServer(
      { OTEL_TRACES_SAMPLER: 'always_on' },
      {
        store: (store) =>
          withPageOfVersions(async (...args) => {
            storeReached();
            await left;
            return store.presets.pageOfVersions(...args);
          })(store),
      },
    );
    const caller = callerTrace();
    const requestId = `aborted-${hex(4)}`;
    const aborted = new AbortController();
    const request = fetch(`${traced.server.baseUrl}${pathOf('listPresetVersions', { slug: 'support-agent' })}`, {
      headers: {
        authorization: `Bearer ${traced.workspace.managementKey}`,
        traceparent: caller.traceparent,
        'x-request-id': requestId,
      },
      signal: aborted.signal,
    });
    // Left once the request waits on the store, which it does until the server has seen it go (its log line).
    await reached;
    aborted.abort();
    await expect(request).rejects.toThrow();
    const deadline = Date.now() + 5000;
    while (!traced.server.logs.some((line) => (line.req as { id?: string } | undefined)?.id === requestId)) {
      if (Date.now() > deadline) throw new Error('the server did not see the client leave within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    clientLeft();
    const server = serverSpanOf(await spansOf(traced.receiver, caller.traceId));
    expect(server.attributes['error.type']).toBe('aborted');
    expect(server.statusCode).toBe(STATUS_ERROR);
  });

  it('is named by the route under the server URL the request came in by, the longest that matches', async () => {
    const servers = [{ url: '/api' }, { url: '/api/v1' }];
    const twoServers = { ...structuredClone(spec), servers } as OpenApiDocument;
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' }, { spec: twoServers });
    const { template } = specOperation(spec, 'getKey');
    const hash = traced.workspace.standardKeyHash;
    for (const base of ['/api/v1', '/api']) {
      const caller = callerTrace();
      const response = await send(traced, 'GET', `${base}${template.replace('{hash}', hash)}`, {
        key: traced.workspace.managementKey,
        traceparent: caller.traceparent,
      });
      expect(response.status, base).toBe(200);
      const server = serverSpanOf(await spansOf(traced.receiver, caller.traceId));
      expect(server.attributes['http.route'], base).toBe(`${base}${template}`);
    }
  });

  it('is not made for the health and readiness probes', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' });
    const probes = [callerTrace(), callerTrace()];
    expect((await send(traced, 'GET', '/healthz', { traceparent: probes[0]?.traceparent })).status).toBe(200);
    expect((await send(traced, 'GET', '/readyz', { traceparent: probes[1]?.traceparent })).status).toBe(200);
    const after = callerTrace();
    await send(traced, 'GET', pathOf('getKey', { hash: traced.workspace.standardKeyHash }), {
      key: traced.workspace.managementKey,
      traceparent: after.traceparent,
    });
    await spansOf(traced.receiver, after.traceId);
    const probeTraces = new Set(probes.map((probe) => probe.traceId));
    expect(traced.receiver.spans.filter((span) => probeTraces.has(span.traceId))).toEqual([]);
  });
});

describe('a request that is not sampled', () => {
  it('exports nothing under a ratio of 0, and its log line keeps the caller trace id with no span id', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
    const { workspace } = traced;
    const caller = callerTrace();
    const withCaller = `unsampled-${hex(4)}`;
    const withoutCaller = `unsampled-${hex(4)}`;
    const path = pathOf('getKey', { hash: workspace.standardKeyHash });
    const options = { key: workspace.managementKey };
    expect(
      (await send(traced, 'GET', path, { ...options, traceparent: caller.traceparent, requestId: withCaller })).status,
    ).toBe(200);
    expect((await send(traced, 'GET', path, { ...options, requestId: withoutCaller })).status).toBe(200);

    const line = logLineOf(traced.server, withCaller);
    expect(line.trace_id).toBe(caller.traceId);
    expect(line).not.toHaveProperty('span_id');
    expect(logLineOf(traced.server, withoutCaller)).not.toHaveProperty('trace_id');
    // Shutting down sends whatever was queued.
    await traced.tracing.shutdown(2000);
    expect(traced.receiver.bodies).toEqual([]);
  });

  it('follows the caller decision under a parent-based sampler', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' });
    const { workspace } = traced;
    const path = pathOf('getKey', { hash: workspace.standardKeyHash });
    const declined = callerTrace(NOT_SAMPLED);
    const accepted = callerTrace(SAMPLED);
    const declinedId = `declined-${hex(4)}`;
    await send(traced, 'GET', path, {
      key: workspace.managementKey,
      traceparent: declined.traceparent,
      requestId: declinedId,
    });
    await send(traced, 'GET', path, { key: workspace.managementKey, traceparent: accepted.traceparent });
    // Spans leave in the order they ended: once the later trace has arrived, the earlier would have.
    expect(serverSpanOf(await spansOf(traced.receiver, accepted.traceId)).parentSpanId).toBe(accepted.spanId);
    expect(traced.receiver.spans.filter((span) => span.traceId === declined.traceId)).toEqual([]);
    expect(logLineOf(traced.server, declinedId)).toMatchObject({ trace_id: declined.traceId });
    expect(logLineOf(traced.server, declinedId)).not.toHaveProperty('span_id');
  });
});
