// An app on a fresh in-memory database, served on an ephemeral loopback port, with a clock the
// test moves and a log the test can read. Every response is validated against openapi.yaml.
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createApp } from '../../server/app.js';
import type { KeyKind } from '../../server/domain/api-keys.js';
import { loadDestinationTypeRules } from '../../server/domain/destination-config-rules.js';
import { createSecretBox, type SecretBox } from '../../server/domain/secrets.js';
import { createMetrics, type Metrics } from '../../server/metrics/metrics.js';
import { Provisioning } from '../../server/provisioning/provision.js';
import { type RateLimitOptions, UNREACHABLE_RATE_LIMIT } from '../../server/rate-limit/rate-limit.js';
import { loadSpec, type OpenApiDocument } from '../../server/spec.js';
import type { DatabaseOptions } from '../../server/store/connection.js';
import { openStore, type Store } from '../../server/store/store.js';
import type { ServerTracing } from '../../server/telemetry/server-tracing.js';
import { createTestDatabase } from './database.js';
import { listenOnLoopback, listenWithHttpServer } from './listen.js';
import { contractRecorder } from './runner/contract-recorder.js';

export const spec = loadSpec();
export const destinationTypes = loadDestinationTypeRules(spec);
export const provision = new Provisioning(spec, destinationTypes);

/** The usage figures of a key that has served no request. */
export const NO_USAGE = {
  usage: 0,
  usage_daily: 0,
  usage_weekly: 0,
  usage_monthly: 0,
  byok_usage: 0,
  byok_usage_daily: 0,
  byok_usage_weekly: 0,
  byok_usage_monthly: 0,
} as const;

export class TestClock {
  constructor(private current: Date) {}
  readonly now = (): Date => new Date(this.current);
  set(iso: string): void {
    this.current = new Date(iso);
  }
}

export interface LogEntry {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface TestServer {
  baseUrl: string;
  databaseUrl: string;
  store: Store;
  clock: TestClock;
  secrets: SecretBox;
  logs: LogEntry[];
  /** The server's metrics, when the test turned them on. */
  metrics: Metrics | undefined;
  /** Log entries at error level: a response that broke the contract shows up here. */
  serverErrors(): LogEntry[];
  close(): Promise<void>;
}

export interface TestServerOptions {
  now?: string;
  /** Defaults to a fresh in-memory database. */
  databaseUrl?: string;
  /** The keys of the secrets; a random key by default. */
  secrets?: SecretBox;
  /** Wraps the store, to make it fail in chosen ways. */
  store?: (store: Store) => Store;
  /** Out of reach unless a test sets it. */
  rateLimit?: RateLimitOptions;
  authFailureLimit?: RateLimitOptions;
  trustProxy?: boolean | number | string;
  corsOrigins?: string[];
  /** Another contract than openapi.yaml (a changed copy of it). */
  spec?: OpenApiDocument;
  /** Prometheus metrics, as METRICS_PORT turns them on; off unless a test sets it. */
  metrics?: boolean;
  /** Served by the server's own HTTP server (server/http/http-server.ts), not a bare node:http one. */
  httpServer?: boolean;
  /** The database's options (PostgreSQL's pool size and connect timeout); the defaults unless a test sets them. */
  databaseOptions?: DatabaseOptions;
  /** Tracing as the server runs it when OTEL_TRACES_EXPORTER is set: its requests' spans and its statements'. */
  tracing?: ServerTracing;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const secrets = options.secrets ?? createSecretBox(randomBytes(32));
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => undefined }
    : await createTestDatabase();
  const realStore = await openStore(database.url, secrets, {
    ...options.databaseOptions,
    ...(options.tracing && { wrapDriver: options.tracing.driver }),
  });
  const store = options.store ? options.store(realStore) : realStore;
  const clock = new TestClock(new Date(options.now ?? '2026-11-18T12:00:00.000Z'));
  const logs: LogEntry[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logs.push(JSON.parse(line) as LogEntry);
      callback();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const metrics = options.metrics ? createMetrics(options.spec ?? spec, () => store.poolFigures()) : undefined;
  const app = createApp({
    ...(metrics && { metrics }),
    ...(options.tracing && { tracing: options.tracing.requests }),
    store,
    clock: clock.now,
    logger,
    spec: options.spec ?? spec,
    validateResponses: true,
    rateLimit: options.rateLimit ?? UNREACHABLE_RATE_LIMIT,
    authFailureLimit: options.authFailureLimit ?? UNREACHABLE_RATE_LIMIT,
    ...(options.trustProxy !== undefined && { trustProxy: options.trustProxy }),
    corsOrigins: options.corsOrigins ?? [],
  });
  const listening = options.httpServer ? await listenWithHttpServer(app) : await listenOnLoopback(app);
  listening.server.on('request', contractRecorder(options.spec ?? spec));
  return {
    baseUrl: listening.baseUrl,
    databaseUrl: database.url,
    store,
    clock,
    secrets,
    logs,
    metrics,
    serverErrors: () => logs.filter((entry) => entry.level >= 50),
    async close() {
      await listening.close();
      await realStore.close();
      await database.drop();
    },
  };
}

export interface Workspace {
  id: string;
  managementKey: string;
  standardKey: string;
  standardKeyHash: string;
}

/** A workspace with one management and one standard key. */
export async function createWorkspace(store: Store, now: Date, name = 'Test workspace'): Promise<Workspace> {
  const workspace = await store.workspaces.create(name, now);
  const keyOf = (name: string, kind: KeyKind) =>
    provision.createKey(store, { workspaceId: workspace.id, name, kind }, now);
  const management = await keyOf('Admin', 'management');
  const standard = await keyOf('Backend', 'standard');
  return {
    id: workspace.id,
    managementKey: management.rawKey,
    standardKey: standard.rawKey,
    standardKeyHash: standard.hash,
  };
}

/** A test server with a workspace and one otel-collector destination of it, and that destination's path. */
export async function startServerWithDestination(
  options: TestServerOptions = {},
): Promise<{ server: TestServer; workspace: Workspace; destinationPath: string }> {
  const server = await startTestServer(options);
  const workspace = await createWorkspace(server.store, server.clock.now());
  return { server, workspace, destinationPath: await createTestDestination(server, workspace) };
}

/** One otel-collector destination of the workspace; its path. */
export async function createTestDestination(server: TestServer, workspace: Workspace): Promise<string> {
  const destination = await provision.createDestination(
    server.store,
    { workspaceId: workspace.id, type: 'otel-collector', config: { endpoint: 'https://otel.example.com' } },
    server.clock.now(),
  );
  return `/api/v1/observability/destinations/${destination.id}`;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  /** A raw body, sent as is (for malformed JSON and other content types). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  /** The parsed JSON; each test states the shape it expects as it reads it. */
  // biome-ignore lint/suspicious/noExplicitAny: a response body read field by field by each test
  body: any;
}

/** One HTTP request to the test server; the body is parsed as JSON when it is JSON. */
export async function call(
  server: TestServer,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${server.baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, headers: response.headers, body: isJson && text ? JSON.parse(text) : text };
}

/**
 * One request written byte for byte on a socket, for what fetch cannot send (a PATCH with neither
 * Content-Length nor Transfer-Encoding, say). `head` is the request line and headers, without the
 * blank line; the connection closes after the answer.
 */
export async function rawCall(
  server: TestServer,
  head: string,
  body = '',
): Promise<Pick<CallResult, 'status' | 'body'>> {
  const { hostname, port } = new URL(server.baseUrl);
  const response = await new Promise<string>((resolve, reject) => {
    // Written, not ended: a client that half-closes first may see the server hang up before it answers.
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${head}\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n${body}`),
    );
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
  const [statusLine = '', ...rest] = response.split('\r\n');
  const text = rest.join('\r\n').split('\r\n\r\n').slice(1).join('\r\n\r\n');
  return { status: Number(statusLine.split(' ')[1]), body: text ? JSON.parse(text) : undefined };
}
