// Environment variables, parsed and checked once at start-up. What they lead to is done elsewhere:
// the secrets key found or made (secrets-key.ts), the store opened (configured-store.ts).

import { ConfigError } from './config-error.js';
import {
  decodeSecretsKey,
  parseBoolean,
  parseLogLevel,
  parseMetricsPort,
  parseNonNegativeInteger,
  parsePort,
  parsePositiveInteger,
  parsePublicUrl,
  parseTrustProxy,
} from './config-values.js';
import { DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, defaultMaxConnections } from './http/connection-limit.js';
import { type ResolvedSecretsKey, resolveSecretsKey } from './secrets-key.js';
import { DEFAULT_TIMEOUTS, type SessionTimeouts } from './store/connection.js';
import { parseDatabaseUrl } from './store/database.js';
import { loadTracingSettings, type TracingSettings } from './telemetry/settings.js';

export { ConfigError };

/** The settings the environment gives, with the secrets key that secrets-key.ts finds or makes. */
export interface Config extends ResolvedSecretsKey {
  databaseUrl: string;
  host: string;
  port: number;
  nodeEnv: string;
  logLevel: string;
  /** PostgreSQL connections per process. */
  databasePoolSize: number;
  /** How long opening a PostgreSQL connection, or a wait for one while none comes back, may take. */
  databaseConnectTimeoutMs: number;
  /** PostgreSQL's statement, lock and idle-in-transaction timeouts of each connection. */
  databaseTimeouts: SessionTimeouts;
  /** PostgreSQL: rows a process writes at once (store/write-admission.ts). */
  databaseWriters: number;
  /** Whether the server applies the migrations the database lacks as it starts (else `npm run migrate` does). */
  migrateOnStart: boolean;
  /** Keys of before a rotation: they open what they sealed, and seal nothing. */
  previousSecretsKeys: Buffer[];
  rateLimit: { windowMs: number; limit: number };
  /** Failed authentications per client address and minute. */
  authFailureLimit: { windowMs: number; limit: number };
  /** Express's `trust proxy`, from TRUST_PROXY; false (the socket's address) by default. */
  trustProxy: boolean | number | string;
  /** Shared rate-limit counters for several instances; memory when absent. */
  redisUrl: string | undefined;
  /** How long a rate-limit count waits for Redis before this process's own count decides it. */
  redisCommandTimeoutMs: number;
  /** Origins allowed by CORS; none (CORS off) when empty. */
  corsOrigins: string[];
  http: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** Connections open at once in the process; by default a share of the open-file limit. */
    maxConnections: number;
    /** Connections open at once per client address (proxies TRUST_PROXY trusts excepted); 0 for none. */
    maxConnectionsPerAddress: number;
  };
  /** After SIGTERM, how long the server keeps serving (readiness failed) before it stops accepting. */
  shutdownDelayMs: number;
  /** Response validation against openapi.yaml: on in development and tests, off in production. */
  validateResponses: boolean;
  /** The port of GET /metrics (Prometheus), never the API's; no metrics when absent. */
  metricsPort: number | undefined;
  /**
   * Where clients reach the server (a balancer, a proxy), without a trailing slash: the base of the
   * URLs it prints. Its own address when absent.
   */
  publicUrl: string | undefined;
  /** OpenTelemetry tracing, from the OTEL_* variables (README, "Tracing"); off when absent. */
  tracing: TracingSettings | undefined;
}

const DEFAULT_DATABASE_URL = 'sqlite:./data/api.db';

/** DATABASE_WRITERS: half the pool unless said, and never more than the whole of it. */
function parseWriters(value: string | undefined, poolSize: number): number {
  const writers = parsePositiveInteger(value, 'DATABASE_WRITERS', Math.max(1, Math.floor(poolSize / 2)));
  if (writers > poolSize)
    throw new ConfigError(`DATABASE_WRITERS must be at most DATABASE_POOL_SIZE (${poolSize}), got ${writers}`);
  return writers;
}

function checkDatabaseUrl(url: string): string {
  try {
    parseDatabaseUrl(url);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  return url;
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  warn: (message: string) => void = console.warn,
): Config {
  const databaseUrl = checkDatabaseUrl(env.DATABASE_URL || DEFAULT_DATABASE_URL);
  const nodeEnv = env.NODE_ENV || 'development';
  const port = parsePort(env.PORT);
  const databasePoolSize = parsePositiveInteger(env.DATABASE_POOL_SIZE, 'DATABASE_POOL_SIZE', 10);
  return {
    databaseUrl,
    host: env.HOST || '127.0.0.1',
    port,
    metricsPort: parseMetricsPort(env.METRICS_PORT, port),
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    nodeEnv,
    logLevel: parseLogLevel(env.LOG_LEVEL),
    databasePoolSize,
    databaseConnectTimeoutMs: parsePositiveInteger(
      env.DATABASE_CONNECT_TIMEOUT_MS,
      'DATABASE_CONNECT_TIMEOUT_MS',
      1000,
    ),
    databaseTimeouts: {
      statementMs: parsePositiveInteger(
        env.DATABASE_STATEMENT_TIMEOUT_MS,
        'DATABASE_STATEMENT_TIMEOUT_MS',
        DEFAULT_TIMEOUTS.statementMs,
      ),
      lockMs: parsePositiveInteger(env.DATABASE_LOCK_TIMEOUT_MS, 'DATABASE_LOCK_TIMEOUT_MS', DEFAULT_TIMEOUTS.lockMs),
      idleInTransactionMs: parsePositiveInteger(
        env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
        'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
        DEFAULT_TIMEOUTS.idleInTransactionMs,
      ),
    },
    databaseWriters: parseWriters(env.DATABASE_WRITERS, databasePoolSize),
    migrateOnStart: parseBoolean(env.MIGRATE_ON_START, 'MIGRATE_ON_START', true),
    previousSecretsKeys: (env.SECRETS_KEY_PREVIOUS ?? '')
      .split(',')
      .filter((value) => value.trim() !== '')
      .map((value) => decodeSecretsKey(value, 'SECRETS_KEY_PREVIOUS')),
    rateLimit: {
      windowMs: parsePositiveInteger(env.RATE_LIMIT_WINDOW_MS, 'RATE_LIMIT_WINDOW_MS', 60_000),
      limit: parsePositiveInteger(env.RATE_LIMIT_MAX, 'RATE_LIMIT_MAX', 600),
    },
    authFailureLimit: {
      windowMs: 60_000,
      limit: parsePositiveInteger(env.AUTH_FAILURE_LIMIT, 'AUTH_FAILURE_LIMIT', 100),
    },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    redisUrl: env.REDIS_URL || undefined,
    redisCommandTimeoutMs: parsePositiveInteger(env.REDIS_COMMAND_TIMEOUT_MS, 'REDIS_COMMAND_TIMEOUT_MS', 250),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    http: {
      headersTimeoutMs: parsePositiveInteger(env.HEADERS_TIMEOUT_MS, 'HEADERS_TIMEOUT_MS', 10_000),
      requestTimeoutMs: parsePositiveInteger(env.REQUEST_TIMEOUT_MS, 'REQUEST_TIMEOUT_MS', 30_000),
      keepAliveTimeoutMs: parsePositiveInteger(env.KEEP_ALIVE_TIMEOUT_MS, 'KEEP_ALIVE_TIMEOUT_MS', 5_000),
      maxConnections: parsePositiveInteger(env.MAX_CONNECTIONS, 'MAX_CONNECTIONS', defaultMaxConnections()),
      maxConnectionsPerAddress: parseNonNegativeInteger(
        env.MAX_CONNECTIONS_PER_ADDRESS,
        'MAX_CONNECTIONS_PER_ADDRESS',
        DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
      ),
    },
    shutdownDelayMs: parseNonNegativeInteger(env.SHUTDOWN_DELAY_MS, 'SHUTDOWN_DELAY_MS', 5_000),
    tracing: loadTracingSettings(env),
    ...resolveSecretsKey(env, databaseUrl, warn),
    validateResponses: nodeEnv !== 'production',
  };
}
