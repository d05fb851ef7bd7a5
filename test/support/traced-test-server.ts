// A test server with tracing on in the test's own process, wired as main.ts wires it, exporting to
// an OTLP receiver of its own; and what the tests of its spans send and read.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, expect } from 'vitest';
import type { CounterFactory } from '../../server/rate-limit/rate-limit.js';
import { specOperation } from '../../server/spec.js';
import type { QueryDriver } from '../../server/store/prepared.js';
import type { Store } from '../../server/store/store.js';
import { type ServerTracing, startServerTracing } from '../../server/telemetry/server-tracing.js';
import { loadTracingSettings } from '../../server/telemetry/settings.js';
import type { SpanOutcome } from '../../server/telemetry/tracing.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.js';
import {
  type CallResult,
  call,
  createWorkspace,
  type LogEntry,
  spec,
  startTestServer,
  type TestServer,
  type TestServerOptions,
  type Workspace,
} from './server.js';

export const SPAN_KIND_SERVER = 2;
export const SPAN_KIND_CLIENT = 3;
export const STATUS_UNSET = 0;
export const STATUS_ERROR = 2;
export const SAMPLED = '01';
export const NOT_SAMPLED = '00';

export interface Traced {
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

/** For a test file: the traced server a test started is stopped when the test ends. */
export function useTracedServers(): void {
  afterEach(async () => {
    if (!running) return;
    const stopping = running;
    running = undefined;
    await stopping.server.close();
    await stopping.tracing.shutdown(2000);
    await stopping.receiver.close();
  });
}

/**
 * A test server with tracing on under the settings `env` gives, exporting to a receiver of its own;
 * `parts.driver` wraps the database driver beneath the tracing's (to make a statement fail), and
 * `parts.counters` are the rate limit's counters, traced as main.ts traces Redis's.
 */
export async function tracedServer(
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
export const withPageOfVersions =
  (pageOfVersions: Store['presets']['pageOfVersions']) =>
  (store: Store): Store => ({ ...store, presets: { ...store.presets, pageOfVersions } });

export const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A caller's trace context: its ids, and the `traceparent` that carries them with `flags`. */
export function callerTrace(flags = SAMPLED) {
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-${flags}` };
}

/** The path of an operation of openapi.yaml, its parameters filled in. */
export function pathOf(operationId: string, values: Record<string, string>): string {
  const { template } = specOperation(spec, operationId);
  return `/api/v1${template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''))}`;
}

/** The spans of one trace, once its server span has arrived (within 5 s). */
export async function spansOf(receiver: OtlpReceiver, traceId: string): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 5000;
  while (!receiver.spans.some((span) => span.traceId === traceId && span.kind === SPAN_KIND_SERVER)) {
    if (Date.now() > deadline) throw new Error(`no server span of trace ${traceId} arrived within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return receiver.spans.filter((span) => span.traceId === traceId);
}

export function serverSpanOf(spans: ReceivedSpan[]): ReceivedSpan {
  const servers = spans.filter((span) => span.kind === SPAN_KIND_SERVER);
  expect(servers).toHaveLength(1);
  return servers[0] as ReceivedSpan;
}

/** The log line of the request that carried `requestId`. */
export function logLineOf(server: TestServer, requestId: string): LogEntry {
  const line = server.logs.find((entry) => (entry.req as { id?: string } | undefined)?.id === requestId);
  if (!line) throw new Error(`no log line for request ${requestId}`);
  return line;
}

export async function send(
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
