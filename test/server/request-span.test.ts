// The spans of a request, made in the test's own process (server/telemetry/request-span.ts): the
// server span's name, parent and attributes, its statements as children, which check refused a
// request, and nothing at all for a request that is not sampled. What only a process shows (the
// settings read from its environment, the flush at SIGTERM, the collector away) is in tracing.test.ts.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it } from 'vitest';
import type { CounterFactory } from '../../server/http/rate-limit.js';
import { type OpenApiDocument, specOperation } from '../../server/spec.js';
import type { Store } from '../../server/store/index.js';
import type { QueryDriver } from '../../server/store/prepared.js';
import { type ServerTracing, startServerTracing } from '../../server/telemetry/server-tracing.js';
import { loadTracingSettings, SAMPLERS, type SamplerName } from '../../server/telemetry/settings.js';
import type { SpanOutcome } from '../../server/telemetry/tracing.js';
import { testDatabaseKind } from '../support/database.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js';
import {
  type CallResult,
  call,
  createTestDestination,
  createWorkspace,
  type LogEntry,
  spec,
  startTestServer,
  type TestServer,
  type TestServerOptions,
  type Workspace,
} from '../support/server.js';

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;
const STATUS_UNSET = 0;
const STATUS_ERROR = 2;
const SAMPLED = '01';
const NOT_SAMPLED = '00';

interface Traced {
  receiver: OtlpReceiver;
  tracing: ServerTracing;
  server: TestServer;
  workspace: Workspace;
  /** Lines the tracing itself logged (the exporter's state). */
  tracingLogs: LogEntry[];
  /** What became of the spans, as the processor reported it. */
  outcomes: Record<SpanOutcome, number>;
}

let running: Traced | undefined;

afterEach(async () => {
  if (!running) return;
  await running.server.close();
  await running.tracing.shutdown(2000);
  await running.receiver.close();
  running = undefined;
});

/**
 * A test server with tracing on under the settings `env` gives, exporting to a receiver of its own;
 * `parts.driver` wraps the database driver beneath the tracing's (to make a statement fail), and
 * `parts.counters` are the rate limit's counters, traced as main.ts traces Redis's.
 */
async function tracedServer(
  env: Record<string, string>,
  options: Omit<TestServerOptions, 'tracing'> = {},
  parts: { driver?: (driver: QueryDriver) => QueryDriver; counters?: CounterFactory } = {},
): Promise<Traced> {
  const { driver } = parts;
  const receiver = await startOtlpReceiver();
  const settings = loadTracingSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_BSP_SCHEDULE_DELAY: '20', ...env });
  if (!settings) throw new Error('tracing is off under these settings');
  const tracingLogs: LogEntry[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      tracingLogs.push(JSON.parse(chunk.toString('utf8')) as LogEntry);
      done();
    },
  });
  // The official exporter reads its own settings (endpoint, timeout) from the environment as it is made.
  const exporterEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...pickExporterSettings(env) };
  const before = Object.fromEntries(Object.keys(exporterEnv).map((name) => [name, process.env[name]]));
  Object.assign(process.env, exporterEnv);
  const outcomes: Record<SpanOutcome, number> = { exported: 0, queue_full: 0, export_failed: 0 };
  const started = startServerTracing(settings, options.spec ?? spec, pino(sink), (outcome, count) => {
    outcomes[outcome] += count;
  });
  const tracing: ServerTracing = driver
    ? { ...started, driver: (inner, system) => started.driver(driver(inner), system) }
    : started;
  for (const [name, value] of Object.entries(before)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  // Counters of the rate limit, as main.ts wraps Redis's: a count is a call of the request's.
  const rateLimit = parts.counters && {
    ...(options.rateLimit ?? { windowMs: 60_000, limit: 1000 }),
    counters: started.counters(parts.counters),
  };
  const server = await startTestServer({ ...options, ...(rateLimit && { rateLimit }), tracing });
  const workspace = await createWorkspace(server.store, server.clock.now());
  running = { receiver, tracing, server, workspace, tracingLogs, outcomes };
  return running;
}

const pickExporterSettings = (env: Record<string, string>) =>
  Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('OTEL_EXPORTER_')));

/** The store, its pages of versions read by `pageOfVersions` instead. */
const withPageOfVersions =
  (pageOfVersions: Store['presets']['pageOfVersions']) =>
  (store: Store): Store => ({ ...store, presets: { ...store.presets, pageOfVersions } });

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A caller's trace context: its ids, and the `traceparent` that carries them with `flags`. */
function callerTrace(flags = SAMPLED) {
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-${flags}` };
}

/** The path of an operation of openapi.yaml, its parameters filled in. */
function pathOf(operationId: string, values: Record<string, string>): string {
  const { template } = specOperation(spec, operationId);
  return `/api/v1${template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''))}`;
}

/** The spans of one trace, once its server span has arrived (within 5 s). */
async function spansOf(receiver: OtlpReceiver, traceId: string): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 5000;
  while (!receiver.spans.some((span) => span.traceId === traceId && span.kind === SPAN_KIND_SERVER)) {
    if (Date.now() > deadline) throw new Error(`no server span of trace ${traceId} arrived within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return receiver.spans.filter((span) => span.traceId === traceId);
}

function serverSpanOf(spans: ReceivedSpan[]): ReceivedSpan {
  const servers = spans.filter((span) => span.kind === SPAN_KIND_SERVER);
  expect(servers).toHaveLength(1);
  return servers[0] as ReceivedSpan;
}

/** The log line of the request that carried `requestId`. */
function logLineOf(server: TestServer, requestId: string): LogEntry {
  const line = server.logs.find((entry) => (entry.req as { id?: string } | undefined)?.id === requestId);
  if (!line) throw new Error(`no log line for request ${requestId}`);
  return line;
}

async function send(
  traced: Traced,
  method: string,
  path: string,
  options: {
    key?: string;
    traceparent?: string;
    tracestate?: string;
    body?: unknown;
    rawBody?: string;
    contentType?: string;
    requestId?: string;
  } = {},
): Promise<CallResult> {
  return call(traced.server, method, path, {
    ...(options.key !== undefined && { key: options.key }),
    ...(options.body !== undefined && { body: options.body }),
    ...(options.rawBody !== undefined && { rawBody: options.rawBody }),
    headers: {
      ...(options.traceparent !== undefined && { traceparent: options.traceparent }),
      ...(options.tracestate !== undefined && { tracestate: options.tracestate }),
      ...(options.contentType !== undefined && { 'content-type': options.contentType }),
      ...(options.requestId !== undefined && { 'x-request-id': options.requestId }),
    },
  });
}

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

  it('names the check that refused it, and is an error only for a 5xx', async () => {
    const traced = await tracedServer(
      { OTEL_TRACES_SAMPLER: 'always_on' },
      {
        store: withPageOfVersions(async () => {
          throw new Error('the store failed');
        }),
      },
    );
    const { workspace } = traced;
    const destinationPath = await createTestDestination(traced.server, workspace);
    const destinationId = destinationPath.split('/').pop() ?? '';
    const keyPath = pathOf('getKey', { hash: workspace.standardKeyHash });
    const cases: {
      method: string;
      path: string;
      key?: string;
      body?: unknown;
      rawBody?: string;
      contentType?: string;
      status: number;
      refusedBy?: string;
      route: boolean;
    }[] = [
      { method: 'GET', path: keyPath, status: 401, refusedBy: 'authentication', route: true },
      { method: 'GET', path: keyPath, key: workspace.standardKey, status: 403, refusedBy: 'key kind', route: true },
      {
        method: 'PATCH',
        path: pathOf('updateObservabilityDestination', { id: destinationId }),
        key: workspace.managementKey,
        body: { sampling_rate: 'all of them' },
        status: 400,
        refusedBy: 'validation',
        route: true,
      },
      {
        method: 'PATCH',
        path: pathOf('updateObservabilityDestination', { id: destinationId }),
        key: workspace.managementKey,
        rawBody: 'sampling_rate=1',
        contentType: 'application/x-www-form-urlencoded',
        status: 415,
        refusedBy: 'validation',
        route: true,
      },
      {
        method: 'PATCH',
        path: pathOf('updateObservabilityDestination', { id: destinationId }),
        key: workspace.managementKey,
        body: { name: 'x'.repeat(101 * 1024) },
        status: 413,
        refusedBy: 'validation',
        route: true,
      },
      { method: 'GET', path: '/api/v1/no-such-thing', key: workspace.managementKey, status: 404, route: false },
      { method: 'DELETE', path: keyPath, key: workspace.managementKey, status: 405, route: false },
      {
        method: 'GET',
        path: pathOf('listPresetVersions', { slug: 'demo' }),
        key: workspace.managementKey,
        status: 500,
        route: true,
      },
    ];
    for (const sent of cases) {
      const caller = callerTrace();
      const response = await send(traced, sent.method, sent.path, {
        traceparent: caller.traceparent,
        ...(sent.key !== undefined && { key: sent.key }),
        ...(sent.body !== undefined && { body: sent.body }),
        ...(sent.rawBody !== undefined && { rawBody: sent.rawBody }),
        ...(sent.contentType !== undefined && { contentType: sent.contentType }),
      });
      expect(response.status, `${sent.method} ${sent.path}`).toBe(sent.status);
      const server = serverSpanOf(await spansOf(traced.receiver, caller.traceId));
      const what = `${sent.method} ${sent.path}: ${JSON.stringify(server)}`;
      expect(server.attributes['http.response.status_code'], what).toBe(sent.status);
      const refusedBy = sent.refusedBy ?? (sent.route ? undefined : 'operation match');
      expect(server.attributes['api.refused_by'], what).toBe(refusedBy);
      expect(server.statusCode, what).toBe(sent.status >= 500 ? STATUS_ERROR : STATUS_UNSET);
      if (sent.route) expect(server.name, what).toMatch(new RegExp(`^${sent.method} /api/v1/`));
      else {
        expect(server.name, what).toBe(sent.method);
        expect(server.attributes, what).not.toHaveProperty('http.route');
        expect(server.attributes, what).not.toHaveProperty('api.operation_id');
      }
      // The workspace is known once the key is: not for a request refused before or by authentication.
      expect(server.attributes['api.workspace_id'], what).toBe(
        sent.status === 401 || !sent.route ? undefined : workspace.id,
      );
    }
  });

  it('times the validator until the answer when the validator refuses the request', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' });
    const { workspace } = traced;
    const destinationPath = await createTestDestination(traced.server, workspace);
    const caller = callerTrace();
    const response = await send(traced, 'PATCH', destinationPath, {
      key: workspace.managementKey,
      traceparent: caller.traceparent,
      body: { sampling_rate: 7 },
    });
    expect(response.status).toBe(400);
    const server = serverSpanOf(await spansOf(traced.receiver, caller.traceId));
    expect(server.attributes['api.validator.duration_ms']).toBeGreaterThan(0);
  });

  it('names the limit that refused it: the key rate limit once the key is known, else authentication', async () => {
    const traced = await tracedServer(
      { OTEL_TRACES_SAMPLER: 'always_on' },
      { rateLimit: { windowMs: 60_000, limit: 1 }, authFailureLimit: { windowMs: 60_000, limit: 1 } },
    );
    const { workspace } = traced;
    const path = pathOf('getKey', { hash: workspace.standardKeyHash });
    const refusedBy = async (key: string) => {
      const caller = callerTrace();
      const response = await send(traced, 'GET', path, { key, traceparent: caller.traceparent });
      const server = serverSpanOf(await spansOf(traced.receiver, caller.traceId));
      return [response.status, server.attributes['api.refused_by']];
    };
    expect(await refusedBy(workspace.managementKey)).toEqual([200, undefined]);
    expect(await refusedBy(workspace.managementKey)).toEqual([429, 'rate limit']);
    const wrongKey = `${workspace.managementKey.slice(0, -4)}0000`;
    expect(await refusedBy(wrongKey)).toEqual([401, 'authentication']);
    expect(await refusedBy(wrongKey)).toEqual([429, 'authentication']);
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

  it('names no refusal for an answer outside the operations', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' });
    const caller = callerTrace();
    expect((await send(traced, 'GET', '/openapi.yaml', { traceparent: caller.traceparent })).status).toBe(200);
    const server = serverSpanOf(await spansOf(traced.receiver, caller.traceId));
    expect(server.name).toBe('GET');
    expect(server.attributes).not.toHaveProperty('api.refused_by');
    expect(server.attributes).not.toHaveProperty('http.route');
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

describe('the samplers OTEL_TRACES_SAMPLER names', () => {
  type Decisions = [root: boolean, callerSampled: boolean, callerNotSampled: boolean];
  /** Whether a request is sampled, by ratio: with no traceparent, a caller that sampled, a caller that did not. */
  const expected: Record<SamplerName, { 0: Decisions; 1: Decisions }> = {
    always_on: { 0: [true, true, true], 1: [true, true, true] },
    always_off: { 0: [false, false, false], 1: [false, false, false] },
    traceidratio: { 0: [false, false, false], 1: [true, true, true] },
    parentbased_always_on: { 0: [true, true, false], 1: [true, true, false] },
    parentbased_always_off: { 0: [false, true, false], 1: [false, true, false] },
    parentbased_traceidratio: { 0: [false, true, false], 1: [true, true, false] },
  };

  it.each(SAMPLERS.flatMap((name) => ([0, 1] as const).map((ratio) => [name, ratio] as const)))(
    '%s at ratio %d decides as the specification says',
    async (name, ratio) => {
      // The ratio is given to every sampler: only the ratio samplers read it.
      const traced = await tracedServer({ OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: String(ratio) });
      const path = pathOf('getKey', { hash: traced.workspace.standardKeyHash });
      const sampled: boolean[] = [];
      for (const traceparent of [undefined, callerTrace(SAMPLED).traceparent, callerTrace(NOT_SAMPLED).traceparent]) {
        const requestId = `sampler-${hex(4)}`;
        await send(traced, 'GET', path, {
          key: traced.workspace.managementKey,
          requestId,
          ...(traceparent !== undefined && { traceparent }),
        });
        // A sampled request's log line names its span.
        sampled.push(logLineOf(traced.server, requestId).span_id !== undefined);
      }
      expect(sampled).toEqual(expected[name][ratio]);
    },
  );
});

describe('what becomes of the spans', () => {
  it('counts them exported, lost when the collector is away, and says once when it goes and returns', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on', OTEL_EXPORTER_OTLP_TIMEOUT: '1000' });
    const path = pathOf('getKey', { hash: traced.workspace.standardKeyHash });
    const request = async () => {
      const caller = callerTrace();
      await send(traced, 'GET', path, { key: traced.workspace.managementKey, traceparent: caller.traceparent });
      return caller.traceId;
    };
    const until = async (what: string, done: () => boolean) => {
      const deadline = Date.now() + 5000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`not within 5 s: ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const first = await spansOf(traced.receiver, await request());
    await until('the first spans counted', () => traced.outcomes.exported >= first.length);
    expect(traced.outcomes).toMatchObject({ queue_full: 0, export_failed: 0 });

    await traced.receiver.pause();
    await request();
    await until('a failed export counted', () => traced.outcomes.export_failed > 0);
    await until('the warning', () => traced.tracingLogs.some((line) => line.level === 40));
    await request();
    await until('a second failed export counted', () => traced.outcomes.export_failed > first.length);
    await traced.receiver.resume();
    await spansOf(traced.receiver, await request());
    await until('the line that says exports succeed again', () =>
      traced.tracingLogs.some((line) => line.level === 30 && line.msg.includes('again')),
    );
    expect(traced.tracingLogs.find((line) => line.level === 40)?.err).toMatch(/\S/);
    const messages = traced.tracingLogs.map((line) => [line.level, line.msg]);
    expect(messages).toEqual([
      [30, 'traces: exported over OTLP/HTTP'],
      [40, 'traces: the collector does not take spans; they are dropped until it does'],
      [30, 'traces: the collector takes spans again'],
    ]);
  });

  it('sends what is queued at shutdown, and waits no longer than it is given for a collector away', async () => {
    // A schedule far away: only the shutdown sends.
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on', OTEL_BSP_SCHEDULE_DELAY: '600000' });
    const path = pathOf('getKey', { hash: traced.workspace.standardKeyHash });
    const caller = callerTrace();
    await send(traced, 'GET', path, { key: traced.workspace.managementKey, traceparent: caller.traceparent });
    expect(traced.receiver.spans).toEqual([]);
    await traced.tracing.shutdown(2000);
    expect(serverSpanOf(traced.receiver.spans.filter((span) => span.traceId === caller.traceId)).name).toMatch(/^GET /);
  });

  it('gives up a shutdown at its time when the collector does not answer', async () => {
    // A collector that takes the connection and never answers.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const traced = await tracedServer({
        OTEL_TRACES_SAMPLER: 'always_on',
        OTEL_BSP_SCHEDULE_DELAY: '600000',
        OTEL_EXPORTER_OTLP_TIMEOUT: '60000',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      });
      await send(traced, 'GET', pathOf('getKey', { hash: traced.workspace.standardKeyHash }), {
        key: traced.workspace.managementKey,
        traceparent: callerTrace().traceparent,
      });
      const started = performance.now();
      await traced.tracing.shutdown(300);
      expect(performance.now() - started).toBeLessThan(3000);
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('counts the spans a full queue drops', async () => {
    const traced = await tracedServer({
      OTEL_TRACES_SAMPLER: 'always_on',
      OTEL_BSP_MAX_QUEUE_SIZE: '1',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1',
    });
    const caller = callerTrace();
    await send(traced, 'GET', pathOf('getKey', { hash: traced.workspace.standardKeyHash }), {
      key: traced.workspace.managementKey,
      traceparent: caller.traceparent,
    });
    await traced.tracing.shutdown(2000);
    // The server span ends first and takes the queue's one place; its children find it full.
    expect(traced.outcomes.queue_full).toBeGreaterThan(0);
    expect(traced.outcomes.exported + traced.outcomes.queue_full).toBe(
      traced.receiver.spans.length + traced.outcomes.queue_full,
    );
  });
});

describe('tracing as the server starts it', () => {
  it('says once where spans go and under which sampler', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' });
    expect(traced.tracingLogs).toEqual([
      expect.objectContaining({ msg: 'traces: exported over OTLP/HTTP', sampler: 'traceidratio', ratio: 0.25 }),
    ]);
  });
});
