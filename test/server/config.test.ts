// The configuration read from the environment: the defaults the README documents, every variable
// taken as written, and the one-line error a bad value stops the server with.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig } from '../../server/config.js';
import { developmentKeyFile } from '../../server/dev-key-file.js';
import {
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  defaultMaxConnections,
  openFileLimit,
} from '../../server/http/connection-limit.js';

const key = Buffer.alloc(32, 1);
const otherKey = Buffer.alloc(32, 2);
const thirdKey = Buffer.alloc(32, 3);

/** The config of an environment that sets SECRETS_KEY, so that no key file is read or written. */
function configOf(env: NodeJS.ProcessEnv): Config {
  return loadConfig({ SECRETS_KEY: key.toString('base64'), ...env }, () => {
    throw new Error('no warning expected');
  });
}

/** The message of the ConfigError that the environment stops the server with. */
function configErrorOf(env: NodeJS.ProcessEnv): string {
  try {
    configOf(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).name).toBe('ConfigError');
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
}

const defaults: Config = {
  databaseUrl: 'sqlite:./data/api.db',
  host: '127.0.0.1',
  port: 3000,
  nodeEnv: 'development',
  logLevel: 'info',
  databasePoolSize: 10,
  databaseConnectTimeoutMs: 1000,
  databaseTimeouts: { statementMs: 5000, lockMs: 2000, idleInTransactionMs: 5000 },
  databaseWriters: 5,
  migrateOnStart: true,
  secretsKey: key,
  secretsKeySource: 'SECRETS_KEY',
  previousSecretsKeys: [],
  rateLimit: { windowMs: 60_000, limit: 600 },
  authFailureLimit: { windowMs: 60_000, limit: 100 },
  trustProxy: false,
  redisUrl: undefined,
  redisCommandTimeoutMs: 250,
  corsOrigins: [],
  http: {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    maxConnections: defaultMaxConnections(),
    maxConnectionsPerAddress: 128,
  },
  shutdownDelayMs: 5_000,
  validateResponses: true,
  metricsPort: undefined,
  publicUrl: undefined,
  tracing: undefined,
};

const everyVariable = [
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATABASE_STATEMENT_TIMEOUT_MS',
  'DATABASE_LOCK_TIMEOUT_MS',
  'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
  'DATABASE_WRITERS',
  'MIGRATE_ON_START',
  'HOST',
  'PORT',
  'SECRETS_KEY_PREVIOUS',
  'RATE_LIMIT_MAX',
  'RATE_LIMIT_WINDOW_MS',
  'REDIS_URL',
  'REDIS_COMMAND_TIMEOUT_MS',
  'CORS_ORIGINS',
  'HEADERS_TIMEOUT_MS',
  'REQUEST_TIMEOUT_MS',
  'KEEP_ALIVE_TIMEOUT_MS',
  'MAX_CONNECTIONS',
  'MAX_CONNECTIONS_PER_ADDRESS',
  'NODE_ENV',
  'LOG_LEVEL',
  'SHUTDOWN_DELAY_MS',
  'AUTH_FAILURE_LIMIT',
  'TRUST_PROXY',
  'METRICS_PORT',
  'PUBLIC_URL',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_SERVICE_NAME',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_RESOURCE_ATTRIBUTES',
];

describe('the configuration', () => {
  it('has the documented defaults when nothing is set', () => {
    expect(configOf({})).toEqual(defaults);
  });

  it('takes an empty variable as unset', () => {
    expect(configOf(Object.fromEntries(everyVariable.map((name) => [name, ''])))).toEqual(defaults);
  });

  it('takes every variable as written', () => {
    expect(
      configOf({
        DATABASE_URL: 'postgres://api@db.internal:5433/api',
        DATABASE_POOL_SIZE: '4',
        DATABASE_CONNECT_TIMEOUT_MS: '1500',
        DATABASE_STATEMENT_TIMEOUT_MS: '8000',
        DATABASE_LOCK_TIMEOUT_MS: '3000',
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '9000',
        DATABASE_WRITERS: '1',
        MIGRATE_ON_START: 'false',
        HOST: '0.0.0.0',
        PORT: '8080',
        SECRETS_KEY_PREVIOUS: `${otherKey.toString('base64')},${thirdKey.toString('base64')}`,
        RATE_LIMIT_MAX: '50',
        RATE_LIMIT_WINDOW_MS: '1000',
        REDIS_URL: 'redis://127.0.0.1:6379',
        REDIS_COMMAND_TIMEOUT_MS: '400',
        CORS_ORIGINS: 'https://console.example.com',
        HEADERS_TIMEOUT_MS: '2000',
        REQUEST_TIMEOUT_MS: '3000',
        KEEP_ALIVE_TIMEOUT_MS: '4000',
        MAX_CONNECTIONS: '900',
        MAX_CONNECTIONS_PER_ADDRESS: '20',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        SHUTDOWN_DELAY_MS: '0',
        AUTH_FAILURE_LIMIT: '7',
        TRUST_PROXY: 'loopback',
        METRICS_PORT: '9464',
        PUBLIC_URL: 'https://api.example.com',
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.internal:4318',
        OTEL_SERVICE_NAME: 'api-eu',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,team=api%20core',
      }),
    ).toEqual({
      databaseUrl: 'postgres://api@db.internal:5433/api',
      host: '0.0.0.0',
      port: 8080,
      nodeEnv: 'production',
      logLevel: 'warn',
      databasePoolSize: 4,
      databaseConnectTimeoutMs: 1500,
      databaseTimeouts: { statementMs: 8000, lockMs: 3000, idleInTransactionMs: 9000 },
      databaseWriters: 1,
      migrateOnStart: false,
      secretsKey: key,
      secretsKeySource: 'SECRETS_KEY',
      previousSecretsKeys: [otherKey, thirdKey],
      rateLimit: { windowMs: 1000, limit: 50 },
      authFailureLimit: { windowMs: 60_000, limit: 7 },
      trustProxy: 'loopback',
      redisUrl: 'redis://127.0.0.1:6379',
      redisCommandTimeoutMs: 400,
      corsOrigins: ['https://console.example.com'],
      http: {
        headersTimeoutMs: 2000,
        requestTimeoutMs: 3000,
        keepAliveTimeoutMs: 4000,
        maxConnections: 900,
        maxConnectionsPerAddress: 20,
      },
      shutdownDelayMs: 0,
      validateResponses: false,
      metricsPort: 9464,
      publicUrl: 'https://api.example.com',
      tracing: {
        serviceName: 'api-eu',
        sampler: 'parentbased_traceidratio',
        ratio: 0.25,
        resourceAttributes: { 'deployment.environment.name': 'prod', team: 'api core' },
        batch: { scheduledDelayMillis: 5000, exportTimeoutMillis: 30_000, maxQueueSize: 2048, maxExportBatchSize: 512 },
      },
    });
  });

  it('gives half the pool to writers unless told, and never more than the pool', () => {
    expect(configOf({ DATABASE_POOL_SIZE: '7' }).databaseWriters).toBe(3);
    expect(configOf({ DATABASE_POOL_SIZE: '1' }).databaseWriters).toBe(1);
    expect(configErrorOf({ DATABASE_POOL_SIZE: '4', DATABASE_WRITERS: '5' })).toBe(
      'DATABASE_WRITERS must be at most DATABASE_POOL_SIZE (4), got 5',
    );
  });

  it('refuses a database timeout that is not a positive whole number of milliseconds', () => {
    for (const name of [
      'DATABASE_CONNECT_TIMEOUT_MS',
      'DATABASE_STATEMENT_TIMEOUT_MS',
      'DATABASE_LOCK_TIMEOUT_MS',
      'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
    ])
      for (const value of ['0', '-5', '1.5', '2s', '1e400'])
        expect(configErrorOf({ [name]: value })).toBe(
          `${name} must be a positive integer, got ${JSON.stringify(value)}`,
        );
  });

  it('reads MIGRATE_ON_START as true or false, nothing else', () => {
    expect(configOf({ MIGRATE_ON_START: 'true' }).migrateOnStart).toBe(true);
    expect(configErrorOf({ MIGRATE_ON_START: 'no' })).toBe('MIGRATE_ON_START must be true or false, got "no"');
  });

  it('validates responses everywhere but in production', () => {
    expect(configOf({ NODE_ENV: 'production' }).validateResponses).toBe(false);
    expect(configOf({ NODE_ENV: 'test' }).validateResponses).toBe(true);
    expect(configOf({ NODE_ENV: 'development' }).validateResponses).toBe(true);
  });

  it('reads comma-separated CORS origins, trimmed, skipping empty entries', () => {
    expect(configOf({ CORS_ORIGINS: ' https://a.example.com , ,https://b.example.com,' }).corsOrigins).toEqual([
      'https://a.example.com',
      'https://b.example.com',
    ]);
  });

  it('reads comma-separated previous secrets keys, skipping blank entries', () => {
    const previous = ` ${otherKey.toString('base64')} , ,${thirdKey.toString('base64')},`;
    expect(configOf({ SECRETS_KEY_PREVIOUS: previous }).previousSecretsKeys).toEqual([otherKey, thirdKey]);
  });

  it('refuses a database URL of another kind, or a SQLite URL without a path', () => {
    expect(configErrorOf({ DATABASE_URL: 'mysql://db.internal/api' })).toBe(
      'DATABASE_URL must start with sqlite: or postgres:// (got mysql:)',
    );
    expect(configErrorOf({ DATABASE_URL: 'sqlite:' })).toBe('DATABASE_URL sqlite: needs a path, or :memory:');
  });
});

describe('METRICS_PORT', () => {
  it('takes a port of its own, or 0 (any free port)', () => {
    expect(configOf({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(configOf({ METRICS_PORT: '0', PORT: '0' }).metricsPort).toBe(0);
  });

  it.each(['-1', '65536', 'metrics'])('refuses %s', (value) => {
    expect(configErrorOf({ METRICS_PORT: value })).toBe(
      `METRICS_PORT must be an integer from 0 to 65535, got "${value}"`,
    );
  });

  it("refuses the API's port", () => {
    expect(configErrorOf({ METRICS_PORT: '3000' })).toBe(
      "METRICS_PORT must differ from PORT (3000): the metrics are never served on the API's port",
    );
    expect(configErrorOf({ METRICS_PORT: '8080', PORT: '8080' })).toMatch(/^METRICS_PORT must differ from PORT/);
  });
});

describe('PUBLIC_URL', () => {
  it.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://API.example.com:443', 'https://api.example.com'],
    ['https://example.com/keys-api//', 'https://example.com/keys-api'],
  ])('takes %s as %s', (value, taken) => {
    expect(configOf({ PUBLIC_URL: value }).publicUrl).toBe(taken);
  });

  it.each([
    'api.example.com',
    '/api',
    'ftp://api.example.com',
    'https://user:secret@api.example.com',
    'https://api.example.com/?x=1',
    'https://api.example.com/#docs',
  ])('refuses %s', (value) => {
    expect(configErrorOf({ PUBLIC_URL: value })).toBe(
      `PUBLIC_URL must be an http:// or https:// URL without credentials, query or fragment (e.g. https://api.example.com), got ${JSON.stringify(value)}`,
    );
  });
});

describe('PORT', () => {
  it('takes 0 (any free port) up to 65535', () => {
    expect(configOf({ PORT: '0' }).port).toBe(0);
    expect(configOf({ PORT: '65535' }).port).toBe(65535);
  });

  it.each(['-1', '65536', '80.5', 'http'])('refuses %s', (value) => {
    expect(configErrorOf({ PORT: value })).toBe(`PORT must be an integer from 0 to 65535, got "${value}"`);
  });
});

describe('the positive integers', () => {
  it.each<[string, (config: Config) => number]>([
    ['DATABASE_POOL_SIZE', (config) => config.databasePoolSize],
    ['RATE_LIMIT_MAX', (config) => config.rateLimit.limit],
    ['RATE_LIMIT_WINDOW_MS', (config) => config.rateLimit.windowMs],
    ['AUTH_FAILURE_LIMIT', (config) => config.authFailureLimit.limit],
    ['HEADERS_TIMEOUT_MS', (config) => config.http.headersTimeoutMs],
    ['REQUEST_TIMEOUT_MS', (config) => config.http.requestTimeoutMs],
    ['REDIS_COMMAND_TIMEOUT_MS', (config) => config.redisCommandTimeoutMs],
    ['KEEP_ALIVE_TIMEOUT_MS', (config) => config.http.keepAliveTimeoutMs],
    ['MAX_CONNECTIONS', (config) => config.http.maxConnections],
  ])('%s takes 1 and up, and refuses 0, negatives, fractions and words', (name, read) => {
    expect(read(configOf({ [name]: '1' }))).toBe(1);
    expect(read(configOf({ [name]: '250' }))).toBe(250);
    for (const value of ['0', '-3', '1.5', 'ten']) {
      expect(configErrorOf({ [name]: value })).toBe(`${name} must be a positive integer, got "${value}"`);
    }
  });
});

describe('DATABASE_WRITERS', () => {
  it('takes 1 up to the pool size, and refuses 0, negatives, fractions and words by its name', () => {
    expect(configOf({ DATABASE_WRITERS: '1' }).databaseWriters).toBe(1);
    for (const value of ['0', '-3', '1.5', 'ten'])
      expect(configErrorOf({ DATABASE_WRITERS: value })).toBe(
        `DATABASE_WRITERS must be a positive integer, got "${value}"`,
      );
  });
});

describe('the connection limits', () => {
  it('MAX_CONNECTIONS_PER_ADDRESS takes 0 (no limit) and up, and refuses negatives, fractions and words', () => {
    expect(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS).toBe(128);
    expect(configOf({ MAX_CONNECTIONS_PER_ADDRESS: '0' }).http.maxConnectionsPerAddress).toBe(0);
    expect(configOf({ MAX_CONNECTIONS_PER_ADDRESS: '7' }).http.maxConnectionsPerAddress).toBe(7);
    for (const value of ['-1', '2.5', 'many']) {
      expect(configErrorOf({ MAX_CONNECTIONS_PER_ADDRESS: value })).toBe(
        `MAX_CONNECTIONS_PER_ADDRESS must be an integer of 0 or more, got "${value}"`,
      );
    }
  });

  it('MAX_CONNECTIONS is by default the open-file limit less a tenth (at least 64), at most 10,000', () => {
    expect([256, 1024, 2048, 20_000, 1_048_576, 60].map((limit) => defaultMaxConnections(limit))).toEqual([
      192, 922, 1844, 10_000, 10_000, 1,
    ]);
  });

  it("reads the open-file limit from the process's limits, and knows none when they cannot be read", () => {
    const limits = join(mkdtempSync(join(tmpdir(), 'limits-')), 'limits');
    writeFileSync(
      limits,
      [
        'Limit                     Soft Limit           Hard Limit           Units',
        'Max processes             95000                95000                processes',
        'Max open files            2048                 4096                 files',
      ].join('\n'),
    );
    expect(openFileLimit(limits)).toBe(2048);
    writeFileSync(limits, 'Max open files            unlimited            unlimited            files\n');
    expect(openFileLimit(limits)).toBeUndefined();
    expect(openFileLimit(join(limits, 'none'))).toBeUndefined();
  });

  it("reads this process's own soft limit by default, as the shell's ulimit says it", () => {
    const said = execFileSync('sh', ['-c', 'ulimit -Sn'], { encoding: 'utf8' }).trim();
    expect(openFileLimit()).toBe(said === 'unlimited' ? undefined : Number(said));
  });
});

describe('SHUTDOWN_DELAY_MS', () => {
  it('takes 0 for no delay', () => {
    expect(configOf({ SHUTDOWN_DELAY_MS: '0' }).shutdownDelayMs).toBe(0);
    expect(configOf({ SHUTDOWN_DELAY_MS: '250' }).shutdownDelayMs).toBe(250);
  });

  it.each(['-1', '0.5', 'soon'])('refuses %s', (value) => {
    expect(configErrorOf({ SHUTDOWN_DELAY_MS: value })).toBe(
      `SHUTDOWN_DELAY_MS must be an integer of 0 or more, got "${value}"`,
    );
  });
});

describe('LOG_LEVEL', () => {
  it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('takes %s', (level) => {
    expect(configOf({ LOG_LEVEL: level }).logLevel).toBe(level);
  });

  it('refuses any other level, naming the ones it takes', () => {
    expect(configErrorOf({ LOG_LEVEL: 'loud' })).toBe(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
    expect(configErrorOf({ LOG_LEVEL: 'INFO' })).toBe(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "INFO"',
    );
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    ['unset', false, undefined],
    ['blank', false, '  '],
    ['false', false, 'false'],
    ['true', true, 'true'],
    ['one hop', 1, '1'],
    ['twelve hops', 12, '12'],
  ])('%s means %j', (_name, expected, value) => {
    expect(configOf({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it.each([
    'loopback',
    'linklocal',
    'uniquelocal',
    'loopback, linklocal, uniquelocal',
    '10.0.0.1',
    '10.0.0.0/8',
    '10.0.0.0/32',
    '192.168.0.0/16, fd00::/8',
    'fe80::/64',
    '::1/128',
  ])('takes the addresses and subnets %s as written', (value) => {
    expect(configOf({ TRUST_PROXY: value }).trustProxy).toBe(value);
  });

  it.each([
    ['proxy.internal', 'proxy.internal'],
    ['loopback, gateway', 'gateway'],
    ['10.0.0.0/33', '10.0.0.0/33'],
    ['fe80::/129', 'fe80::/129'],
    ['10.0.0.0/', '10.0.0.0/'],
    ['10.0.0.0/+8', '10.0.0.0/+8'],
    ['10.0.0.0/8e0', '10.0.0.0/8e0'],
    ['10.0.0.0/0x8', '10.0.0.0/0x8'],
    ['10.0.0.1,', ''],
  ])('refuses %s, naming the entry %s', (value, entry) => {
    expect(configErrorOf({ TRUST_PROXY: value })).toBe(
      `TRUST_PROXY must be true, false, a number of hops, or addresses and subnets (loopback, 10.0.0.0/8...), got ${JSON.stringify(entry)}`,
    );
  });
});

describe('SECRETS_KEY', () => {
  it('is 32 bytes in base64, around which blanks and a newline do not count', () => {
    expect(configOf({ SECRETS_KEY: ` ${otherKey.toString('base64')}\n` }).secretsKey).toEqual(otherKey);
  });

  it('refuses a key of another length, saying how many bytes it got', () => {
    expect(configErrorOf({ SECRETS_KEY: Buffer.alloc(16).toString('base64') })).toBe(
      'SECRETS_KEY must be 32 bytes encoded in base64 (got 16 bytes)',
    );
    expect(configErrorOf({ SECRETS_KEY_PREVIOUS: `${otherKey.toString('base64')},AAAA` })).toBe(
      'SECRETS_KEY_PREVIOUS must be 32 bytes encoded in base64 (got 3 bytes)',
    );
  });

  it('is required in production, even for a database in memory', () => {
    const message =
      'SECRETS_KEY is required when NODE_ENV=production (32 random bytes in base64, e.g. `openssl rand -base64 32`).';
    expect(configErrorOf({ SECRETS_KEY: undefined, NODE_ENV: 'production' })).toBe(message);
    expect(configErrorOf({ SECRETS_KEY: '', NODE_ENV: 'production', DATABASE_URL: 'sqlite::memory:' })).toBe(message);
  });

  it('of a database in memory is a fresh one each time, with no key file and no warning', () => {
    const warnings: string[] = [];
    const env = { DATABASE_URL: 'sqlite::memory:' };
    const first = loadConfig(env, (message) => warnings.push(message));
    const second = loadConfig(env, (message) => warnings.push(message));
    expect(first.secretsKey.length).toBe(32);
    expect(second.secretsKey.length).toBe(32);
    expect(first.secretsKey.equals(second.secretsKey)).toBe(false);
    expect([first.developmentKey, second.developmentKey]).toEqual([undefined, undefined]);
    expect(warnings).toEqual([]);
  });
});

describe('the development key file of a PostgreSQL database', () => {
  it('names the default port when the URL leaves it out', () => {
    const file = join('data', 'postgres-db.internal-5432-postgres.key');
    expect(developmentKeyFile('postgres://db.internal/postgres')).toBe(file);
    expect(developmentKeyFile('postgresql://db.internal:5432/postgres')).toBe(file);
  });

  it('is never made for a URL that names no database: the URL is refused first', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432' }, () => undefined)).toThrow(
      'DATABASE_URL names no PostgreSQL database',
    );
  });

  it('replaces what a file name should not hold with underscores', () => {
    expect(developmentKeyFile('postgres://[::1]:5433/my%20db')).toBe(join('data', 'postgres-___1_-5433-my_20db.key'));
  });
});
