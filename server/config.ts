// Environment variables, parsed and checked once at start-up.

import { randomBytes } from 'node:crypto';
import { ConfigError } from './config-error.js';
import {
  parseBoolean,
  parseLogLevel,
  parseMetricsPort,
  parseNonNegativeInteger,
  parsePort,
  parsePositiveInteger,
  parsePublicUrl,
  parseTrustProxy,
} from './config-values.js';
import { developmentKeyFile, readOwnKey, readSharedKey, writeKeyFile } from './dev-key-file.js';
import { createSecretBox } from './domain/secrets.js';
import { DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, defaultMaxConnections } from './http/connection-limit.js';
import { DEFAULT_TIMEOUTS, type SessionTimeouts } from './store/connection.js';
import { type DatabaseLocation, parseDatabaseUrl } from './store/database.js';
import { openStore, type Store, type StoreOptions } from './store/index.js';
import { loadTracingSettings, type TracingSettings } from './telemetry/settings.js';

export { ConfigError };

export interface Config {
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
  /** 32-byte key for AES-256-GCM of the secrets at rest. */
  secretsKey: Buffer;
  /** Without SECRETS_KEY in development: the key made for the database, to save once it has opened. */
  developmentKey?: PendingDevelopmentKey;
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

function decodeSecretsKey(value: string, source: string): Buffer {
  // Stryker disable next-line MethodExpression: equivalent, see mutation/equivalents.md#base64-skips-whitespace
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== 32)
    throw new ConfigError(`${source} must be 32 bytes encoded in base64 (got ${key.length} bytes)`);
  return key;
}

/** A development key made for a database, written (with its warning) once the database has opened. */
export interface PendingDevelopmentKey {
  file: string;
  save(): void;
}

type ResolvedKey = Pick<Config, 'secretsKey' | 'developmentKey'>;

/**
 * SECRETS_KEY, or in development a key generated once for the database (with a warning), so that
 * the quick start needs no setup. Production refuses to start without it. A database that already
 * has data and no key of its own takes over the shared key of its folder (dev-key-file.ts), so that
 * nothing it holds becomes unreadable.
 */
function resolveSecretsKey(env: NodeJS.ProcessEnv, databaseUrl: string, warn: (message: string) => void): ResolvedKey {
  if (env.SECRETS_KEY) return { secretsKey: decodeSecretsKey(env.SECRETS_KEY, 'SECRETS_KEY') };
  if (env.NODE_ENV === 'production') {
    throw new ConfigError(
      'SECRETS_KEY is required when NODE_ENV=production (32 random bytes in base64, e.g. `openssl rand -base64 32`).',
    );
  }
  const location = parseDatabaseUrl(databaseUrl);
  if (location.kind === 'sqlite' && location.filename === ':memory:') return { secretsKey: randomBytes(32) };
  const keyFile = developmentKeyFile(databaseUrl);
  const cannot = (err: unknown) => {
    if (err instanceof ConfigError) return err;
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return new ConfigError(
      `SECRETS_KEY is not set, and the development key ${keyFile} cannot be made (${reason}): set SECRETS_KEY, or a DATABASE_URL in a folder that can be written.`,
    );
  };
  try {
    const own = readOwnKey(keyFile);
    if (own) return { secretsKey: decodeSecretsKey(own.text, own.file) };
    const made = newDevelopmentKey(location, keyFile);
    const save = () => {
      try {
        writeKeyFile(keyFile, made.key);
      } catch (err) {
        throw cannot(err);
      }
      warn(made.warning);
    };
    return { secretsKey: made.key, developmentKey: { file: keyFile, save } };
  } catch (err) {
    throw cannot(err);
  }
}

/** The key of a database that has none yet: its folder's shared key when it takes it over, a new one otherwise. */
function newDevelopmentKey(location: DatabaseLocation, keyFile: string): { key: Buffer; warning: string } {
  const shared = readSharedKey(location, keyFile);
  if (shared) {
    return {
      key: decodeSecretsKey(shared.text, shared.file),
      warning: `SECRETS_KEY is not set: the development key of this database is now ${keyFile} (copied from ${shared.file}, which other databases of the folder may still use). Set SECRETS_KEY in production.`,
    };
  }
  return {
    key: randomBytes(32),
    warning: `SECRETS_KEY is not set: generated a development key into ${keyFile}. Set SECRETS_KEY in production.`,
  };
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

/**
 * The configuration's store, opened with its secrets keys. A development key made for the database
 * is saved only once the database has opened: a start that fails leaves no key behind for it.
 */
export async function openConfiguredStore(config: Config, options: StoreOptions = {}): Promise<Store> {
  const store = await openStore(config.databaseUrl, createSecretBox(config.secretsKey, config.previousSecretsKeys), {
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    timeouts: config.databaseTimeouts,
    writers: config.databaseWriters,
    migrate: config.migrateOnStart,
    ...options,
  });
  config.developmentKey?.save();
  return store;
}
