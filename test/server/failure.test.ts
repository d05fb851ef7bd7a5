// The one line a command prints when it stops: what a user can cause (configuration, the contract,
// a port, the database) said plainly; anything else as a possible bug, with where to see more.
import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../server/config.js';
import { describeFailure } from '../../server/failure.js';
import { ContractError } from '../../server/spec.js';
import { DatabaseOpenError } from '../../server/store/database.js';

/** An error shaped as Node's `listen` gives it. */
function listenError(code: string, address: string, port: number): Error {
  return Object.assign(new Error(`listen ${code}: ${address}:${port}`), {
    code,
    errno: -1,
    syscall: 'listen',
    address,
    port,
  });
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('what stopped a command', () => {
  it('is a configuration error, in the words of the configuration', () => {
    expect(describeFailure(new ConfigError('PORT must be an integer from 0 to 65535, got "x"'))).toBe(
      'Configuration error: PORT must be an integer from 0 to 65535, got "x"',
    );
  });

  it('is a contract error, in the words of the contract check', () => {
    expect(describeFailure(new ContractError('openapi.yaml is not valid YAML: duplicated mapping key'))).toBe(
      'Contract error: openapi.yaml is not valid YAML: duplicated mapping key',
    );
  });

  it('is a database that cannot be opened, as the error says it', () => {
    expect(
      describeFailure(new DatabaseOpenError('SQLite database data/api.db', 'the file is not a SQLite database')),
    ).toBe('Cannot open the SQLite database data/api.db: the file is not a SQLite database.');
  });

  it('is a port already in use, with the address and what to do', async () => {
    const first = createServer().listen(0, '127.0.0.1');
    await once(first, 'listening');
    const { port } = first.address() as { port: number };
    const second = createServer().listen(port, '127.0.0.1');
    try {
      const [err] = await once(second, 'error');
      expect(describeFailure(err)).toBe(
        `Cannot listen on 127.0.0.1:${port}: the address is already in use. Stop what uses it, or set PORT to a free port.`,
      );
    } finally {
      first.close();
    }
  });

  it('is a privileged port, with what to do', () => {
    expect(describeFailure(listenError('EACCES', '0.0.0.0', 80))).toBe(
      'Cannot listen on 0.0.0.0:80: permission denied. Set PORT to a port above 1023.',
    );
  });

  it('is an address of another machine, with what to do', () => {
    expect(describeFailure(listenError('EADDRNOTAVAIL', '192.0.2.1', 3000))).toBe(
      'Cannot listen on 192.0.2.1:3000: no such address on this machine. Set HOST to one of its addresses.',
    );
  });

  it('is an unreachable database, with the reason the driver gave', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      errno: -111,
      syscall: 'connect',
      address: '127.0.0.1',
      port: 5432,
    });
    expect(describeFailure(refused)).toBe(
      'Cannot reach the database of DATABASE_URL: connect ECONNREFUSED 127.0.0.1:5432',
    );
    expect(describeFailure(new Error('Connection terminated unexpectedly'))).toBe(
      'Cannot reach the database of DATABASE_URL: Connection terminated unexpectedly',
    );
  });

  it('is a permission error that is not about a port, as an unexpected failure', () => {
    vi.stubEnv('LOG_LEVEL', 'info');
    const denied = Object.assign(new Error("EACCES: permission denied, open 'data/api.db.key'"), {
      code: 'EACCES',
      errno: -13,
      syscall: 'open',
      path: 'data/api.db.key',
    });
    expect(describeFailure(denied)).toBe(
      "Failed: EACCES: permission denied, open 'data/api.db.key' (LOG_LEVEL=debug shows where)",
    );
  });

  it('is anything else, as an unexpected failure, pointing to LOG_LEVEL=debug unless it is set', () => {
    vi.stubEnv('LOG_LEVEL', 'info');
    expect(describeFailure(new TypeError('x is not a function'))).toBe(
      'Failed: x is not a function (LOG_LEVEL=debug shows where)',
    );
    vi.stubEnv('LOG_LEVEL', 'debug');
    expect(describeFailure(new TypeError('x is not a function'))).toBe('Failed: x is not a function');
  });

  it('is a thrown value that is not an error, as written', () => {
    vi.stubEnv('LOG_LEVEL', 'debug');
    expect(describeFailure('the store is closed')).toBe('Failed: the store is closed');
    expect(describeFailure(42)).toBe('Failed: 42');
  });

  it('is said the caller’s way when the caller words unexpected failures itself', () => {
    expect(describeFailure(new Error('boom'), (message) => `error: ${message}`)).toBe('error: boom');
    expect(describeFailure(new ConfigError('HOST is bad'), (message) => `error: ${message}`)).toBe(
      'Configuration error: HOST is bad',
    );
  });
});
