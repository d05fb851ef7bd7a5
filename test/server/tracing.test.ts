// Tracing end to end: the real server, as a process, exports its spans over OTLP/HTTP to a receiver
// this test runs. Each operation of openapi.yaml gives a server span named by its route template,
// continuing the caller's trace, with its statements as children and the validator's time; the request's
// log line leads to it; no key, hash, secret or value sent appears in anything exported. Then the
// collector goes away and comes back, its queue fills, and the server stops with spans queued.
// In the `postgres` project the same runs on PostgreSQL.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { specOperation, specOperations } from '../../server/spec.js';
import { openStore } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase, testDatabaseKind } from '../support/database.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js';
import type { ServerProcess } from '../support/process.js';
import { provision, spec } from '../support/server.js';
import { startTracedServer } from '../support/traced-server.js';

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;
const STATUS_ERROR = 2;
const dbSystem = testDatabaseKind === 'postgres' ? 'postgresql' : 'sqlite';
const secretsKey = randomBytes(32);
const folder = mkdtempSync(join(tmpdir(), 'tracing-'));

interface Fixture {
  databaseUrl: string;
  rawKey: string;
  hash: string;
  keyId: string;
  destinationId: string;
  slug: string;
  /** Keys of the same workspace not used yet, by operationId: their first request reads the key. */
  freshKeys: Record<string, string>;
  /** Values the fixture stored or a test sends that must never be exported. */
  secrets: string[];
}

let database: TestDatabase | undefined;
let fixture: Fixture;

async function seed(): Promise<Fixture> {
  database = testDatabaseKind === 'postgres' ? await createPostgresDatabase() : undefined;
  const databaseUrl = database?.url ?? `sqlite:${join(folder, 'traced.db')}`;
  const store = await openStore(databaseUrl, createSecretBox(secretsKey));
  const now = new Date();
  const workspace = await store.workspaces.create('Traced', now);
  const key = await provision.createKey(store, { workspaceId: workspace.id, name: 'Admin', kind: 'management' }, now);
  // A server holds a key it read for a second: each operation's span is checked on a key it has not read.
  const freshKeys: Record<string, string> = {};
  const freshHashes: string[] = [];
  for (const { operation } of specOperations(spec)) {
    const fresh = await provision.createKey(
      store,
      { workspaceId: workspace.id, name: operation.operationId, kind: 'management' },
      now,
    );
    freshKeys[operation.operationId] = fresh.rawKey;
    freshHashes.push(fresh.hash);
  }
  const config = { bucketName: 'b', accessKeyId: 'AKIATRACED7Q2W', secretAccessKey: 'secret-traced-5c1d9e' };
  const destination = await provision.createDestination(
    store,
    { workspaceId: workspace.id, type: 's3', name: 'start', config },
    now,
  );
  const slug = 'slug-7d1e4a';
  await provision.addPresetVersion(
    store,
    { workspaceId: workspace.id, slug, config: { model: 'vendor/model-3f9b' }, creatorId: 'user_1' },
    now,
  );
  await store.close();
  return {
    databaseUrl,
    rawKey: key.rawKey,
    hash: key.hash,
    keyId: key.id,
    destinationId: destination.id,
    slug,
    freshKeys,
    secrets: [
      ...Object.values(freshKeys),
      ...freshHashes,
      key.rawKey,
      key.hash,
      config.accessKeyId,
      config.secretAccessKey,
      destination.id,
      slug,
      'vendor/model-3f9b',
    ],
  };
}

/** The server with tracing on, exporting to `endpoint`; its stdout lines are kept. */
function tracedServer(endpoint: string, env: Record<string, string> = {}) {
  return startTracedServer(endpoint, {
    DATABASE_URL: fixture.databaseUrl,
    SECRETS_KEY: secretsKey.toString('base64'),
    ...env,
  });
}

/** The value sent for each path parameter, by its name in the spec. */
function pathValues(): Record<string, string> {
  return { hash: fixture.hash, id: fixture.destinationId, slug: fixture.slug };
}

function requestFor(operationId: string, template: string, method: string) {
  const values = pathValues();
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`the test has no value for the path parameter ${name} of ${operationId}`);
    return encodeURIComponent(value);
  });
  const body = method === 'patch' ? JSON.stringify({ name: 'renamed-9a2c71' }) : undefined;
  return { path: `/api/v1${path}`, body };
}

/** A getKey of the fixture's key, its path from openapi.yaml: the plain request the tests load the server with. */
function getKeyRequest() {
  const { template, method } = specOperation(spec, 'getKey');
  return requestFor('getKey', template, method);
}

async function send(
  server: ServerProcess,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Response> {
  const response = await fetch(`${server.url}${path}`, {
    method: method.toUpperCase(),
    headers: {
      authorization: `Bearer ${fixture.rawKey}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body !== undefined && { body }),
  });
  await response.arrayBuffer();
  return response;
}

function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

async function metric(server: ServerProcess, outcome: string): Promise<number> {
  const text = await (await fetch(server.metricsUrl ?? '')).text();
  const line = text.split('\n').find((l) => l.startsWith(`trace_spans_total{outcome="${outcome}"}`));
  return Number(line?.split(' ').pop() ?? Number.NaN);
}

/** Until `condition` holds: vitest's expect.poll, with the bound an export or a process needs. */
async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  await expect.poll(condition, { timeout: 10_000, message: `timed out waiting until ${what}` }).toBe(true);
}

beforeAll(async () => {
  fixture = await seed();
});

afterAll(async () => {
  await database?.drop();
  rmSync(folder, { recursive: true, force: true });
});

describe('tracing, with a collector', () => {
  let receiver: OtlpReceiver;
  let server: ServerProcess;
  let lines: string[];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    ({ server, lines } = await tracedServer(receiver.url));
  });

  afterAll(async () => {
    await server.stop();
    await receiver.close();
  });

  const spansOf = async (traceId: string, count: number) => {
    await until(
      () => receiver.spans.filter((span) => span.traceId === traceId).length >= count,
      `${count} spans of ${traceId}`,
    );
    return receiver.spans.filter((span) => span.traceId === traceId);
  };

  const operations = specOperations(spec);

  it('reads the operations from the contract', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  for (const { method, template, operation } of operations) {
    const operationId = operation.operationId;
    it(`gives ${operationId} a server span named by its route, in the caller's trace, with its statements as children`, async () => {
      const traceId = randomHex(16);
      const parentId = randomHex(8);
      const { path, body } = requestFor(operationId, template, method);
      const headers = {
        traceparent: `00-${traceId}-${parentId}-01`,
        authorization: `Bearer ${fixture.freshKeys[operationId]}`,
      };
      const response = await send(server, method, path, headers, body);
      expect(response.status).toBe(200);
      const spans = await spansOf(traceId, 3);
      const root = spans.find((span) => span.kind === SPAN_KIND_SERVER) as ReceivedSpan;
      const route = `/api/v1${template}`;
      expect(root.name).toBe(`${method.toUpperCase()} ${route}`);
      expect(root.parentSpanId).toBe(parentId);
      expect(root.attributes).toMatchObject({
        'http.request.method': method.toUpperCase(),
        'http.route': route,
        'http.response.status_code': 200,
        'api.operation_id': operationId,
      });
      expect(root.attributes['api.workspace_id']).toEqual(expect.any(String));
      expect(root.attributes['api.refused_by']).toBeUndefined();
      // The validator's time, as an attribute of the request's span.
      expect(root.attributes['api.validator.duration_ms']).toBeGreaterThan(0);
      const children = spans.filter((span) => span !== root);
      for (const child of children) expect(child.parentSpanId).toBe(root.spanId);
      const statements = children.filter((span) => span.kind === SPAN_KIND_CLIENT);
      expect(statements.map((span) => span.name)).toContain('keys.byHash');
      expect(statements.length).toBeGreaterThanOrEqual(2);
      // Each statement named by its store and query, as `keys.byHash`; a read-modify-write by its read.
      for (const statement of statements) expect(statement.name).toMatch(/^[a-z]+\.[A-Za-z]+( then write)?$/);
      for (const statement of statements) expect(statement.attributes['db.system.name']).toBe(dbSystem);
      // The request's log line leads to its span.
      await until(() => lines.some((line) => line.includes(root.spanId)), 'the log line');
      const logged = JSON.parse(lines.find((line) => line.includes(root.spanId)) ?? '{}');
      expect(logged).toMatchObject({ trace_id: traceId, span_id: root.spanId, res: { status: 200 } });
    }, 30_000);
  }

  it('starts a new trace for a malformed traceparent, and answers as without it', async () => {
    const { path } = getKeyRequest();
    for (const traceparent of [
      '00-zz-00f067aa0ba902b7-01',
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
      'x'.repeat(4000),
    ]) {
      const before = receiver.spans.length;
      const response = await send(server, 'get', path, { traceparent, tracestate: 'a=b' });
      expect(response.status).toBe(200);
      await until(
        () => receiver.spans.slice(before).some((span) => span.kind === SPAN_KIND_SERVER),
        'a new server span',
      );
      const root = receiver.spans.slice(before).find((span) => span.kind === SPAN_KIND_SERVER) as ReceivedSpan;
      expect(root.parentSpanId).toBe('');
      expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(root.traceId).not.toBe('0'.repeat(32));
    }
  }, 60_000);

  it('names the check that refused a request, and a path of no operation by its method alone', async () => {
    const cases: { path: string; headers: Record<string, string>; status: number; refusedBy: string }[] = [
      {
        path: `/api/v1/keys/${fixture.hash}`,
        headers: { authorization: '' },
        status: 401,
        refusedBy: 'authentication',
      },
      { path: `/api/v1/presets/${fixture.slug}/versions?limit=0`, headers: {}, status: 400, refusedBy: 'validation' },
      { path: '/api/v1/nowhere', headers: {}, status: 404, refusedBy: 'operation match' },
    ];
    for (const { path, headers, status, refusedBy } of cases) {
      const traceId = randomHex(16);
      const response = await send(server, 'get', path, { traceparent: `00-${traceId}-${randomHex(8)}-01`, ...headers });
      expect(response.status).toBe(status);
      const root = (await spansOf(traceId, 1)).find((span) => span.kind === SPAN_KIND_SERVER) as ReceivedSpan;
      expect(root.attributes['api.refused_by']).toBe(refusedBy);
      expect(root.attributes['http.response.status_code']).toBe(status);
      expect(root.statusCode).not.toBe(STATUS_ERROR);
      if (status === 404) expect(root.name).toBe('GET');
    }
  }, 60_000);

  it('exports no key, hash, secret or value sent, in any attribute, name or resource', async () => {
    await until(() => receiver.bodies.length > 0, 'an export');
    const exported = receiver.bodies.join('\n');
    // The names the test looks for are there: the search reads what was exported.
    expect(exported).toContain('keys.byHash');
    for (const secret of [...fixture.secrets, 'renamed-9a2c71', fixture.keyId]) expect(exported).not.toContain(secret);
  });

  it('does not trace the probes', async () => {
    const before = receiver.bodies.join('').length;
    for (const probe of ['/healthz', '/readyz']) expect((await fetch(`${server.url}${probe}`)).status).toBe(200);
    const traceId = randomHex(16);
    await send(server, 'get', '/api/v1/nowhere', { traceparent: `00-${traceId}-${randomHex(8)}-01` });
    await spansOf(traceId, 1);
    expect(receiver.spans.filter((span) => span.attributes['url.path'] !== undefined)).toEqual([]);
    expect(receiver.bodies.join('').slice(before)).not.toMatch(/healthz|readyz/);
  });
});

describe('tracing, when the collector goes away', () => {
  it('changes no answer, counts the spans lost, says so once, and sends again once it is back', async () => {
    const receiver = await startOtlpReceiver();
    await receiver.pause();
    const { server, lines } = await tracedServer(receiver.url);
    try {
      const { path } = getKeyRequest();
      for (let i = 0; i < 20; i++) expect((await send(server, 'get', path)).status).toBe(200);
      await until(async () => (await metric(server, 'export_failed')) > 0, 'an export failed');
      await receiver.resume();
      await until(async () => {
        await send(server, 'get', path);
        return receiver.spans.length > 0;
      }, 'spans arrive again');
      await until(() => lines.some((line) => line.includes('collector takes spans again')), 'the line of its return');
      expect(lines.filter((line) => line.includes('collector does not take spans'))).toHaveLength(1);
      expect(lines.filter((line) => line.includes('collector takes spans again'))).toHaveLength(1);
      expect(await metric(server, 'exported')).toBeGreaterThan(0);
    } finally {
      await server.stop();
      await receiver.close();
    }
  }, 60_000);

  it('drops spans past its queue while the collector does not answer, and counts them', async () => {
    // A collector that takes the connection and never answers: the first export hangs.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const address = silent.address() as { port: number };
    const { server } = await tracedServer(`http://127.0.0.1:${address.port}`, {
      OTEL_BSP_MAX_QUEUE_SIZE: '8',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '4',
      OTEL_EXPORTER_OTLP_TIMEOUT: '30000',
    });
    try {
      const { path } = getKeyRequest();
      const statuses = [];
      for (let i = 0; i < 20; i++) statuses.push((await send(server, 'get', path)).status);
      expect(new Set(statuses)).toEqual(new Set([200]));
      await until(async () => (await metric(server, 'queue_full')) > 0, 'spans dropped at the full queue');
    } finally {
      await server.stop();
      for (const socket of held) socket.destroy();
      silent.close();
    }
  }, 60_000);
});

describe('tracing, at shutdown', () => {
  it('sends the spans still queued before the process exits', async () => {
    const receiver = await startOtlpReceiver();
    const { server } = await tracedServer(receiver.url, { OTEL_BSP_SCHEDULE_DELAY: '600000' });
    try {
      const traceId = randomHex(16);
      const { path } = getKeyRequest();
      await send(server, 'get', path, { traceparent: `00-${traceId}-${randomHex(8)}-01` });
      expect(receiver.spans).toEqual([]);
      expect(await server.stop()).toBe(0);
      expect(receiver.spans.filter((span) => span.traceId === traceId).length).toBeGreaterThanOrEqual(3);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
