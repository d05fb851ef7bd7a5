// The CLI's words and exit codes: 0 done, 1 not found or refused (one sentence, no usage), 2 usage
// (with the usage). Help for every command; JSON on stdout alone, so that it pipes.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliCommands } from '../../server/provisioning/commands.js';
import { commandUsage } from '../../server/provisioning/usage.js';
import { loadSpec, nodeAt } from '../../server/spec.js';
import { projectRoot, runEntry } from '../support/process.js';

const exec = promisify(execFile);

function database() {
  const dir = mkdtempSync(join(tmpdir(), 'cli-messages-'));
  return { DATABASE_URL: `sqlite:${join(dir, 'api.db')}`, SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') };
}

async function cli(args: string[], env: Record<string, string> = database()) {
  const result = await runEntry('server/cli.ts', args, env);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  return result;
}

const spec = loadSpec();

/** The usage of one command, as `help <command>` prints it. */
function usageOf(name: string): string {
  const command = cliCommands(spec).find((known) => known.name === name);
  if (!command) throw new Error(`no command ${name}`);
  return commandUsage(command);
}

function parse(stdout: string) {
  return JSON.parse(stdout) as Record<string, string>;
}

const MISSING_WORKSPACE = '7c1f0000-0000-4000-8000-000000000000';
const MISSING_HASH = 'a'.repeat(64);

describe('cli, when what it names does not exist', () => {
  it.each([
    ['create-key', ['--workspace', MISSING_WORKSPACE, '--name', 'Ops']],
    [
      'create-destination',
      ['--workspace', MISSING_WORKSPACE, '--type', 'webhook', '--config', '{"url":"https://e.com"}'],
    ],
    [
      'add-preset-version',
      ['--workspace', MISSING_WORKSPACE, '--slug', 's', '--config', '{"model":"m"}', '--creator-id', 'u'],
    ],
  ])('%s in an unknown workspace: exit 1 and one sentence naming it, no database error', async (command, args) => {
    const { code, stderr, stdout } = await cli([command, ...args]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(`no workspace ${MISSING_WORKSPACE} (npm run -s cli -- list-workspaces lists them)`);
  });

  it.each([
    ['disable-key', ['--hash', MISSING_HASH]],
    ['enable-key', ['--hash', MISSING_HASH]],
    ['record-usage', ['--key-hash', MISSING_HASH, '--amount', '1']],
  ])('%s of an unknown key: exit 1, one sentence, no usage', async (command, args) => {
    const { code, stderr } = await cli([command, ...args]);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`no key with hash ${MISSING_HASH}`);
  });
});

describe('cli usage errors', () => {
  it('an unknown command: exit 2 with the usage', async () => {
    const { code, stderr } = await cli(['create-keys']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^unknown command "create-keys"\n\nUsage: npm run -s cli -- <command>/);
  });

  it("a required option missing: exit 2, its line, then that command's usage alone", async () => {
    const { code, stderr } = await cli(['create-workspace']);
    expect(code).toBe(2);
    expect(stderr).toBe(`--name is required\n\n${usageOf('create-workspace')}\n`);
    expect(stderr).not.toContain('create-key');
  });

  it("an unknown option: exit 2, its line, then that command's usage alone", async () => {
    const { code, stderr } = await cli(['create-key', '--workspace', MISSING_WORKSPACE, '--nmae', 'Ops']);
    expect(code).toBe(2);
    expect(stderr).toBe(`unknown option --nmae\n\n${usageOf('create-key')}\n`);
  });

  it('no command at all: exit 2 with the usage', async () => {
    const { code, stderr } = await cli([]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^Usage: /);
  });
});

describe('cli refusals, each one line in the same words', () => {
  it('a negative --limit or --amount given apart reaches the command, which says what it allows', async () => {
    const env = database();
    const workspace = parse((await cli(['create-workspace', '--name', 'Acme'], env)).stdout);
    const limit = await cli(['create-key', '--workspace', workspace.id ?? '', '--name', 'Ops', '--limit', '-5'], env);
    expect(limit.code).toBe(1);
    expect(limit.stderr).toBe('invalid input: /limit must be >= 0\n');
    const key = parse((await cli(['create-key', '--workspace', workspace.id ?? '', '--name', 'Ops'], env)).stdout);
    const amount = await cli(['record-usage', '--key-hash', key.hash ?? '', '--amount', '-3'], env);
    expect(amount.code).toBe(1);
    expect(amount.stderr).toBe('invalid input: /amount must be a finite number >= 0\n');
  });

  it('an unknown destination type is said as an unknown key kind is, with no prefix of its own', async () => {
    const env = database();
    const workspace = parse((await cli(['create-workspace', '--name', 'Acme'], env)).stdout);
    const enumOf = (schema: string) => (nodeAt(spec, `#/components/schemas/${schema}/enum`) as string[]).join(', ');
    const type = await cli(
      ['create-destination', '--workspace', workspace.id ?? '', '--type', 'carrier-pigeon', '--config', '{}'],
      env,
    );
    expect(type.code).toBe(1);
    expect(type.stderr).toBe(`invalid input: /type must be one of: ${enumOf('DestinationType')}\n`);
    const kind = await cli(['create-key', '--workspace', workspace.id ?? '', '--name', 'Ops', '--kind', 'root'], env);
    expect(kind.stderr).toBe(`invalid input: /kind must be one of: ${enumOf('KeyKind')}\n`);
  });
});

describe('cli warnings', () => {
  it('create-key --expires-at in the past creates the key, warning on stderr that it is already expired', async () => {
    const env = database();
    const workspace = parse((await cli(['create-workspace', '--name', 'Acme'], env)).stdout);
    const { code, stdout, stderr } = await cli(
      ['create-key', '--workspace', workspace.id ?? '', '--name', 'Old', '--expires-at', '2020-01-01T00:00:00Z'],
      env,
    );
    expect(code).toBe(0);
    expect(parse(stdout).key).toMatch(/^sk-or-v1-[0-9a-f]{64}$/);
    expect(stderr).toBe(
      'the key is already expired (it expired at 2020-01-01T00:00:00.000Z); it is created, but cannot authenticate\n',
    );
  });
});

describe('cli help', () => {
  it('help prints the usage, with the exit codes, on stdout', async () => {
    const { code, stdout } = await cli(['help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: npm run -s cli -- <command> \[options\]/);
    expect(stdout).toContain('Exit codes: 0 done; 1 not found or refused');
  });

  it.each([[['help', 'create-key']], [['create-key', '--help']], [['create-key', '-h']]])(
    "%j prints that command's usage",
    async (args) => {
      const { code, stdout } = await cli(args);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Usage: npm run -s cli -- create-key --workspace ID --name N/);
      expect(stdout).not.toContain('create-destination');
    },
  );

  it('--help alone prints the usage on stdout', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: npm run -s cli -- <command>/);
  });

  it('help of an unknown command: exit 2', async () => {
    expect((await cli(['help', 'nope'])).code).toBe(2);
  });
});

describe('cli output, piped', () => {
  it('npm run -s cli -- seed --demo --json writes only the JSON on stdout', async () => {
    const { stdout } = await exec('npm', ['run', '-s', 'cli', '--', 'seed', '--demo', '--json'], {
      cwd: projectRoot,
      env: { ...process.env, ...database() },
    });
    expect(JSON.parse(stdout)).toHaveProperty('management_key');
  });
});
