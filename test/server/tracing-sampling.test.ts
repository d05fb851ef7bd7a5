// Sampling is decided once, as a request comes in, by the sampler OTEL_TRACES_SAMPLER names: a
// request that is not sampled exports nothing, and its log line still carries the caller's trace
// id. Which traces a ratio keeps is held against the SDK's own sampler, given the same trace ids.
// Each server here is stopped before its spans are read: at SIGTERM it sends all it has queued.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { specOperation } from '../../server/spec.js';
import { openStore } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase, testDatabaseKind } from '../support/database.js';
import { type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js';
import { provision, spec } from '../support/server.js';
import { startTracedServer } from '../support/traced-server.js';

const SPAN_KIND_SERVER = 2;
const secretsKey = randomBytes(32);
const folder = mkdtempSync(join(tmpdir(), 'tracing-sampling-'));
let database: TestDatabase | undefined;
let databaseUrl: string;
let rawKey: string;
let keyPath: string;

beforeAll(async () => {
  database = testDatabaseKind === 'postgres' ? await createPostgresDatabase() : undefined;
  databaseUrl = database?.url ?? `sqlite:${join(folder, 'sampled.db')}`;
  const store = await openStore(databaseUrl, createSecretBox(secretsKey));
  const now = new Date();
  const workspace = await store.workspaces.create('Sampled', now);
  const key = await provision.createKey(store, { workspaceId: workspace.id, name: 'Admin', kind: 'management' }, now);
  await store.close();
  rawKey = key.rawKey;
  keyPath = `/api/v1${specOperation(spec, 'getKey').template.replace('{hash}', key.hash)}`;
});

afterAll(async () => {
  await database?.drop();
  rmSync(folder, { recursive: true, force: true });
});

const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');

interface Sent {
  requestId: string;
  traceId?: string;
}

interface LogLine {
  req: { id: string };
  res: { status: number };
  trace_id?: string;
  span_id?: string;
}

/**
 * Runs a server with `sampler` and `ratio`, sends getKey once for each traceparent given (none for
 * undefined), stops it, and gives what it exported and logged.
 */
async function run(sampler: string, ratio: string | undefined, traceparents: (string | undefined)[]) {
  const receiver = await startOtlpReceiver();
  const { server, lines } = await startTracedServer(receiver.url, {
    DATABASE_URL: databaseUrl,
    SECRETS_KEY: secretsKey.toString('base64'),
    OTEL_TRACES_SAMPLER: sampler,
    ...(ratio !== undefined && { OTEL_TRACES_SAMPLER_ARG: ratio }),
  });
  const sent: Sent[] = [];
  try {
    for (const traceparent of traceparents) {
      const requestId = `sampling-${randomHex(6)}`;
      const response = await fetch(`${server.url}${keyPath}`, {
        headers: {
          authorization: `Bearer ${rawKey}`,
          'x-request-id': requestId,
          ...(traceparent !== undefined && { traceparent }),
        },
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      sent.push({ requestId, ...(traceparent !== undefined && { traceId: traceparent.split('-')[1] }) });
    }
  } finally {
    expect(await server.stop()).toBe(0);
    await receiver.close();
  }
  const logged = lines
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Partial<LogLine>)
    .filter((line): line is LogLine => line.req?.id !== undefined);
  const lineOf = (request: Sent) => logged.find((line) => line.req.id === request.requestId);
  const roots = receiver.spans.filter((span) => span.kind === SPAN_KIND_SERVER);
  return { sent, lineOf, roots, spans: receiver.spans };
}

const traceparent = (traceId: string, flags: '00' | '01') => `00-${traceId}-${randomHex(8)}-${flags}`;

/** What the SDK's own ratio sampler decides for a root trace id. */
function sdkKeeps(ratio: number, traceId: string): boolean {
  const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: randomHex(8), traceFlags: TraceFlags.SAMPLED });
  const decision = new TraceIdRatioBasedSampler(ratio).shouldSample(parent, traceId);
  return decision.decision === SamplingDecision.RECORD_AND_SAMPLED;
}

describe('tracing, sampled once as a request comes in', () => {
  it('exports nothing at traceidratio 0, and logs the caller trace id with no span of its own', async () => {
    const withTrace = traceparent(randomHex(16), '01');
    const { sent, lineOf, spans } = await run('traceidratio', '0', [withTrace, undefined]);
    expect(spans).toEqual([]);
    const [continued, alone] = sent as [Sent, Sent];
    expect(lineOf(continued)).toMatchObject({ trace_id: continued.traceId, res: { status: 200 } });
    expect(lineOf(continued)?.span_id).toBeUndefined();
    // A request with no trace of its caller and not sampled is in no trace.
    expect(lineOf(alone)).toMatchObject({ res: { status: 200 } });
    expect(lineOf(alone)?.trace_id).toBeUndefined();
  }, 30_000);

  it('keeps at traceidratio 0.5 exactly the traces the SDK sampler keeps, and logs each request in its trace', async () => {
    const traceIds = Array.from({ length: 24 }, () => randomHex(16));
    const kept = traceIds.filter((traceId) => sdkKeeps(0.5, traceId));
    // Both kinds are in the sample: the test reads a decision each way.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(traceIds.length);
    const { sent, lineOf, roots, spans } = await run(
      'traceidratio',
      '0.5',
      traceIds.map((traceId) => traceparent(traceId, '01')),
    );
    expect(roots.map((span) => span.traceId).sort()).toEqual([...kept].sort());
    // A sampled request's statements are its children, in its trace; nothing else is exported.
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set(kept));
    for (const request of sent) {
      const root = roots.find((span: ReceivedSpan) => span.traceId === request.traceId);
      const line = lineOf(request);
      expect(line?.trace_id).toBe(request.traceId);
      expect(line?.span_id).toBe(root?.spanId);
    }
  }, 30_000);

  it('follows the caller decision under parentbased_always_on, and samples a request with no caller trace', async () => {
    const notSampled = randomHex(16);
    const sampled = randomHex(16);
    const { sent, lineOf, roots } = await run('parentbased_always_on', undefined, [
      traceparent(notSampled, '00'),
      traceparent(sampled, '01'),
      undefined,
    ]);
    const [, , alone] = sent as [Sent, Sent, Sent];
    const own = lineOf(alone)?.trace_id;
    expect(own).toMatch(/^[0-9a-f]{32}$/);
    expect(roots.map((span) => span.traceId).sort()).toEqual([sampled, own].sort());
    expect(lineOf(sent[0] as Sent)).toMatchObject({ trace_id: notSampled });
    expect(lineOf(sent[0] as Sent)?.span_id).toBeUndefined();
  }, 30_000);
});
