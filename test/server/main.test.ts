import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import yaml from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectOutput } from '../../scripts/shared/child-process.js';
import { apiBasePaths } from '../../server/spec.js';
import {
  type Finished,
  projectRoot,
  runEntry,
  spawnEntry,
  startServerProcess,
  waitForOutput,
} from '../support/process.js';
import { componentSchema, describeErrors, spec } from '../support/spec.js';

const exec = promisify(execFile);

// `npm start` runs the compiled server; its own build here makes sure it is compiled from these sources.
beforeAll(async () => {
  await exec('npm', ['run', '-s', 'build:server'], { cwd: projectRoot });
});

function start(dataDir: string) {
  return spawnEntry('dist/server/main.js', [], {
    DATABASE_URL: `sqlite:${join(dataDir, 'api.db')}`,
    PORT: '0',
    HOST: '127.0.0.1',
    SECRETS_KEY: '',
  });
}

function stop(child: ReturnType<typeof start>): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('close', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('npm start', () => {
  it('seeds an empty database, prints three curl lines that work as printed, and drains on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'main-test-'));
    const child = start(dataDir);
    const output = await waitForOutput(child, /curl [^\n]+presets\/[^\n]+versions[^\n]*\n/);
    expect(output).toMatch(/management key: sk-or-v1-[0-9a-f]{64}/);
    const curlLines = output
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('curl '));
    expect(curlLines).toHaveLength(3);
    const schemas = ['ApiKeyResponse', 'ObservabilityDestinationResponse', 'PresetVersionList'];
    for (const [index, line] of curlLines.entries()) {
      // Exactly as a person would paste it into a shell, with the status written after the body.
      const { stdout } = await exec('sh', ['-c', `${line} -w '\\n%{http_code}'`]);
      const [body = '', status] = [
        stdout.slice(0, stdout.lastIndexOf('\n')),
        stdout.slice(stdout.lastIndexOf('\n') + 1),
      ];
      expect(status, line).toBe('200');
      const validate = componentSchema(schemas[index] ?? '');
      expect(validate(JSON.parse(body)), describeErrors(validate.errors)).toBe(true);
    }
    expect(await stop(child)).toBe(0);

    // A second start on the same database seeds nothing more.
    const again = start(dataDir);
    const secondOutput = await waitForOutput(again, /already has data/);
    expect(secondOutput).not.toContain('management key:');
    expect(await stop(again)).toBe(0);
  });

  it('prints the curl lines at PUBLIC_URL, where clients reach it through a balancer or a proxy', async () => {
    const publicUrl = 'https://api.example.com/keys-api';
    const child = spawnEntry('dist/server/main.js', [], {
      DATABASE_URL: 'sqlite::memory:',
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: `${publicUrl}/`,
    });
    try {
      const output = await waitForOutput(child, /curl [^\n]+presets\/[^\n]+versions[^\n]*\n/);
      const urls = output
        .split('\n')
        .filter((line) => line.trim().startsWith('curl '))
        .map((line) => line.trim().split(' ').at(-1)?.replace(/^'/, ''));
      expect(urls).toHaveLength(3);
      for (const url of urls) expect(url?.startsWith(`${publicUrl}${apiBasePaths(spec)[0]}/`), url).toBe(true);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });

  it('shows the demo keys on the next start when a start could not listen: nothing shown once is lost', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'main-test-'));
    const busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    try {
      const { port } = busy.address() as AddressInfo;
      const failed = await runEntry('dist/server/main.js', [], {
        DATABASE_URL: `sqlite:${join(dataDir, 'api.db')}`,
        PORT: String(port),
        HOST: '127.0.0.1',
        SECRETS_KEY: '',
      });
      expect(failed.code).toBe(1);
      expect(failed.stdout).not.toContain('management key:');
      // The development key's notice, then the one line that says why.
      expect(failed.stderr).not.toMatch(/^\s+at /m);
      expect(failed.stderr.trim().split('\n').at(-1)).toContain(`Cannot listen on 127.0.0.1:${port}`);
    } finally {
      busy.close();
    }
    const next = start(dataDir);
    try {
      const output = await waitForOutput(next, /standard key: +sk-or-v1-/);
      expect(output).toMatch(/management key: sk-or-v1-[0-9a-f]{64}/);
    } finally {
      expect(await stop(next)).toBe(0);
    }
  });

  it("logs no warm-up request as traffic: the first request lines are the clients'", async () => {
    const child = start(mkdtempSync(join(tmpdir(), 'main-test-')));
    let output = '';
    try {
      output = await waitForOutput(child, /"msg":"listening"/);
    } finally {
      expect(await stop(child)).toBe(0);
    }
    expect(output).not.toMatch(/"msg":"(GET|PATCH) \d{3}"/);
  });

  it('refuses to start in production without SECRETS_KEY, saying why', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'main-test-'));
    const { code, stderr } = await runEntry('dist/server/main.js', [], {
      DATABASE_URL: `sqlite:${join(dataDir, 'api.db')}`,
      PORT: '0',
      NODE_ENV: 'production',
      SECRETS_KEY: '',
    });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringContaining('Configuration error: SECRETS_KEY is required when NODE_ENV=production'),
    ]);
  });
});

describe('npm start from a project under a hidden folder', () => {
  it('serves /openapi.yaml even when a folder above the project starts with a dot', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'hidden-parent-')), '.services', 'api');
    cpSync(join(projectRoot, 'dist', 'server'), join(dir, 'dist', 'server'), { recursive: true });
    copyFileSync(join(projectRoot, 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(projectRoot, 'openapi.yaml'), join(dir, 'openapi.yaml'));
    symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const env = { ...process.env, NODE_ENV: 'test', SHUTDOWN_DELAY_MS: '0', PORT: '0', HOST: '127.0.0.1' };
    const child = spawn(process.execPath, ['dist/server/main.js'], {
      cwd: dir,
      env: { ...env, DATABASE_URL: `sqlite:${join(dir, 'data', 'api.db')}`, SECRETS_KEY: '' },
    });
    try {
      const output = await waitForOutput(child, /"msg":"listening"[^\n]*\n/);
      const line = output.split('\n').find((l) => l.includes('"msg":"listening"')) ?? '{}';
      const response = await fetch(`${(JSON.parse(line) as { url: string }).url}/openapi.yaml`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(readFileSync(join(projectRoot, 'openapi.yaml'), 'utf8'));
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });
});

describe('npm start with a spec that the handlers do not match', () => {
  /** The compiled server in a project folder of its own, with its own openapi.yaml. */
  function projectWithSpec(edit: (copy: typeof spec) => void): string {
    const dir = mkdtempSync(join(tmpdir(), 'contract-test-'));
    cpSync(join(projectRoot, 'dist', 'server'), join(dir, 'dist', 'server'), { recursive: true });
    copyFileSync(join(projectRoot, 'package.json'), join(dir, 'package.json'));
    symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const copy = structuredClone(spec);
    edit(copy);
    writeFileSync(join(dir, 'openapi.yaml'), yaml.dump(copy));
    return dir;
  }

  function startIn(dir: string): Promise<Finished> {
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: `sqlite:${join(dir, 'data', 'api.db')}`,
      PORT: '0',
      HOST: '127.0.0.1',
    };
    return collectOutput(spawn(process.execPath, ['dist/server/main.js'], { cwd: dir, env }));
  }

  it('stops with one line naming an operation that has no handler', async () => {
    const dir = projectWithSpec((copy) => {
      (copy.paths['/keys/{hash}'] as Record<string, unknown>).delete = {
        operationId: 'deleteKey',
        summary: 'Delete a key.',
        security: [{ bearerAuth: ['management'] }],
        responses: { '204': { description: 'Deleted.' } },
      };
    });
    const { code, stdout, stderr } = await startIn(dir);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      'Contract error: openapi.yaml and server/operations do not match: operation deleteKey (DELETE /keys/{hash}) has no handler in server/operations',
    ]);
  });

  it('stops with one line saying where openapi.yaml is not valid YAML', async () => {
    const dir = projectWithSpec(() => undefined);
    writeFileSync(join(dir, 'openapi.yaml'), 'openapi: 3.1.0\npaths:\n  /keys: [unclosed\n');
    const { code, stderr } = await startIn(dir);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^Contract error: .*openapi\.yaml is not valid YAML: .+ \(line \d+, column \d+\)$/),
    ]);
  });

  it('stops with one line naming a handler that has no operation', async () => {
    const dir = projectWithSpec((copy) => {
      delete copy.paths['/presets/{slug}/versions'];
    });
    const { code, stderr } = await startIn(dir);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'Contract error: openapi.yaml and server/operations do not match: handler listPresetVersions has no operation in openapi.yaml',
    ]);
  });
});

/** The one line of a failure's output, checked to hold no stack frame. */
function oneLineOf(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

describe('npm start, for errors a user can cause', () => {
  function startWith(env: Record<string, string>): Promise<Finished> {
    return runEntry('dist/server/main.js', [], {
      PORT: '0',
      HOST: '127.0.0.1',
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
      ...env,
    });
  }

  it.each(['PORT', 'METRICS_PORT'])('says in one line that the port of %s is busy, naming it', async (setting) => {
    const busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    try {
      const { port } = busy.address() as AddressInfo;
      const { code, stderr } = await startWith({ [setting]: String(port), DATABASE_URL: 'sqlite::memory:' });
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        `Cannot listen on 127.0.0.1:${port}: the address is already in use. Stop what uses it, or set ${setting} to a free port.`,
      ]);
    } finally {
      busy.close();
    }
  });

  // Each configuration variable's bad values, with SECRETS_KEY and without it (the development key
  // is made on the way): one line, no stack frame, a non-zero exit.
  const BAD_VALUES: [string, string][] = [
    ['DATABASE_URL', 'garbage'],
    ['DATABASE_URL', 'mysql://localhost/api'],
    ['DATABASE_URL', 'sqlite:'],
    ['DATABASE_URL', 'sqlite:/etc/passwd/x.db'],
    ['DATABASE_URL', 'postgres://postgres@127.0.0.1:5432'],
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMIT_MAX', '-1'],
    ['RATE_LIMIT_WINDOW_MS', 'soon'],
    ['AUTH_FAILURE_LIMIT', '0'],
    ['SHUTDOWN_DELAY_MS', 'x'],
    ['SECRETS_KEY_PREVIOUS', 'short'],
    ['METRICS_PORT', 'ninety'],
    ['PUBLIC_URL', 'api.example.com'],
  ];
  it.each(
    BAD_VALUES.flatMap(([name, value]) => [
      [name, value, 'with SECRETS_KEY'],
      [name, value, 'without SECRETS_KEY'],
    ]),
  )('says in one line what is wrong with %s=%s, %s', async (name, value, withKey) => {
    const folder = mkdtempSync(join(tmpdir(), 'bad-config-'));
    const env = { DATABASE_URL: `sqlite:${join(folder, 'api.db')}`, [name]: value };
    const { code, stderr } = await startWith(withKey === 'with SECRETS_KEY' ? env : { ...env, SECRETS_KEY: '' });
    expect(code).not.toBe(0);
    expect(oneLineOf(stderr)).toMatch(name === 'DATABASE_URL' ? /DATABASE_URL|database|development key/ : name);
  });

  it('writes no development key, and warns of none, for a database that does not open', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'no-key-left-'));
    // A folder where the database file should be: SQLite cannot open it; the key could be written.
    mkdirSync(join(folder, 'api.db'));
    const { code, stderr } = await startWith({ DATABASE_URL: `sqlite:${join(folder, 'api.db')}`, SECRETS_KEY: '' });
    expect(code).toBe(1);
    expect(oneLineOf(stderr)).toMatch(/^Cannot open the SQLite database/);
    expect(readdirSync(folder)).toEqual(['api.db']);
  });

  it('says in one line that DATABASE_URL is not one it knows', async () => {
    const { code, stderr } = await startWith({ DATABASE_URL: 'mysql://localhost/api' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'Configuration error: DATABASE_URL must start with sqlite: or postgres:// (got mysql:)',
    ]);
  });

  it('says in one line that the database cannot be reached, naming it but not the password', async () => {
    const { code, stderr } = await startWith({ DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/api' });
    expect(code).toBe(1);
    expect(oneLineOf(stderr)).toBe(
      'Cannot open the PostgreSQL database "api" on 127.0.0.1:1: it cannot be reached (ECONNREFUSED).',
    );
  });

  it.skipIf(!process.env.TEST_POSTGRES_URL)(
    `says in one line that the PostgreSQL database does not exist, naming it but not the password${process.env.TEST_POSTGRES_URL ? '' : ' (skipped: TEST_POSTGRES_URL is not set)'}`,
    async () => {
      const url = new URL(process.env.TEST_POSTGRES_URL ?? '');
      url.pathname = '/no_such_database_here';
      url.password = 'hunter2';
      const { code, stderr } = await startWith({ DATABASE_URL: url.toString() });
      expect(code).toBe(1);
      const line = oneLineOf(stderr);
      expect(line).toBe(
        `Cannot open the PostgreSQL database "no_such_database_here" on ${url.hostname}:${url.port || '5432'}: it does not exist; create it, or fix the database name in DATABASE_URL.`,
      );
      expect(line).not.toContain('hunter2');
    },
  );

  it('says in one line that LOG_LEVEL is not a level', async () => {
    const { code, stderr } = await startWith({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'loud' });
    expect(code).toBe(1);
    expect(oneLineOf(stderr)).toBe(
      'Configuration error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
  });

  it('says in one line that REDIS_COMMAND_TIMEOUT_MS is not a positive integer', async () => {
    const { code, stderr } = await startWith({ DATABASE_URL: 'sqlite::memory:', REDIS_COMMAND_TIMEOUT_MS: '0.5' });
    expect(code).toBe(1);
    expect(oneLineOf(stderr)).toBe(
      'Configuration error: REDIS_COMMAND_TIMEOUT_MS must be a positive integer, got "0.5"',
    );
  });

  it('says in one line that the SQLite file cannot be opened', async () => {
    const missingFolder = join(mkdtempSync(join(tmpdir(), 'main-test-')), 'file-not-folder');
    writeFileSync(missingFolder, '');
    const { code, stderr } = await startWith({ DATABASE_URL: `sqlite:${join(missingFolder, 'api.db')}` });
    expect(code).toBe(1);
    expect(oneLineOf(stderr)).toMatch(/^Cannot open the SQLite database .*api\.db: /);
  });
});

describe('METRICS_PORT', () => {
  it('serves GET /metrics on its own port, and the API port does not', async () => {
    const server = await startServerProcess({ DATABASE_URL: 'sqlite::memory:', METRICS_PORT: '0' });
    try {
      expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      // The warm-up's requests at start, through every operation, are not counted as traffic.
      expect(await (await fetch(server.metricsUrl ?? '')).text()).not.toContain('http_requests_total{');
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const scraped = await fetch(server.metricsUrl ?? '');
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('http_requests_total{operation="none",status="200"} 1');
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('is off when unset: the listening line names no metrics', async () => {
    const server = await startServerProcess({ DATABASE_URL: 'sqlite::memory:' });
    try {
      expect(server.metricsUrl).toBeUndefined();
    } finally {
      await server.stop();
    }
  });
});
