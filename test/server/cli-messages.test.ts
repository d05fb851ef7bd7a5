// The CLI's words and exit codes: 0 done, 1 not found or refused (one sentence, no usage), 2 usage
// (with the usage). Help for every command; JSON on stdout alone, so that it pipes.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
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

  it('a required option missing: exit 2 with the usage', async () => {
    const { code, stderr } = await cli(['create-workspace']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^--name is required\n\nUsage: /);
  });

  it('no command at all: exit 2 with the usage', async () => {
    const { code, stderr } = await cli([]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^Usage: /);
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
