// The spans of a request, made in the test's own process (server/telemetry/request-span.ts): the
// server span's name, parent and attributes, its statements as children, which check refused a
// request, and nothing at all for a request that is not sampled. What only a process shows (the
// settings read from its environment, the flush at SIGTERM, the collector away) is in tracing.test.ts.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { specOperation } from '../../server/spec.js';
import type { Store } from '../../server/store/index.js';
import { type ServerTracing, startServerTracing } from '../../server/telemetry/server-tracing.js';
import { loadTracingSettings } from '../../server/telemetry/settings.js';
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
}

let running: Traced | undefined;

afterEach(async () => {
  if (!running) return;
  await running.server.close();
  await running.tracing.shutdown(2000);
  await running.receiver.close();
  running = undefined;
});

/** A test server with tracing on under the sampler `env` names, exporting to a receiver of its own. */
async function tracedServer(env: Record<string, string>, store?: (store: Store) => Store): Promise<Traced> {
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
  // The official exporter reads its endpoint from the environment as it is made.
  const endpointBefore = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  const tracing = startServerTracing(settings, spec, pino(sink), () => undefined);
  if (endpointBefore === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpointBefore;
  const server = await startTestServer({ tracing, ...(store && { store }) });
  const workspace = await createWorkspace(server.store, server.clock.now());
  running = { receiver, tracing, server, workspace, tracingLogs };
  return running;
}

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
  options: { key?: string; traceparent?: string; body?: unknown; requestId?: string } = {},
): Promise<CallResult> {
  return call(traced.server, method, path, {
    ...(options.key !== undefined && { key: options.key }),
    ...(options.body !== undefined && { body: options.body }),
    headers: {
      ...(options.traceparent !== undefined && { traceparent: options.traceparent }),
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
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' }, (store) => ({
      ...store,
      presets: {
        ...store.presets,
        pageOfVersions: async () => {
          throw new Error('the store failed');
        },
      },
    }));
    const { workspace } = traced;
    const destinationPath = await createTestDestination(traced.server, workspace);
    const destinationId = destinationPath.split('/').pop() ?? '';
    const keyPath = pathOf('getKey', { hash: workspace.standardKeyHash });
    const cases: {
      method: string;
      path: string;
      key?: string;
      body?: unknown;
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

describe('tracing as the server starts it', () => {
  it('says once where spans go and under which sampler', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' });
    expect(traced.tracingLogs).toEqual([
      expect.objectContaining({ msg: 'traces: exported over OTLP/HTTP', sampler: 'traceidratio', ratio: 0.25 }),
    ]);
  });
});
