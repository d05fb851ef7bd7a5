import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEntry } from '../support/process.js';

function database() {
  const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
  return { DATABASE_URL: `sqlite:${join(dir, 'api.db')}`, SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') };
}

const cli = (args: string[], env: Record<string, string>) => runEntry('server/cli.ts', args, env);

function parse(stdout: string) {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('cli', () => {
  it('seed --demo --json prints exactly the documented object', async () => {
    const env = database();
    const result = await cli(['seed', '--demo', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    const seed = parse(result.stdout);
    expect(Object.keys(seed).sort()).toEqual([
      'destination_id',
      'key_hash',
      'management_key',
      'preset_slug',
      'standard_key',
      'workspace_id',
    ]);
    expect(seed.management_key).toMatch(/^sk-or-v1-[0-9a-f]{64}$/);
    expect(seed.standard_key).toMatch(/^sk-or-v1-[0-9a-f]{64}$/);
    expect(seed.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(seed.workspace_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('provisions a workspace, keys, a destination of any type, preset versions and usage', async () => {
    const env = database();
    const workspace = parse((await cli(['create-workspace', '--name', 'Acme'], env)).stdout);
    const key = await cli(
      [
        'create-key',
        '--workspace',
        String(workspace.id),
        '--name',
        'Ops',
        '--kind',
        'management',
        '--limit',
        '25',
        '--limit-reset',
        'weekly',
      ],
      env,
    );
    expect(key.code, key.stderr).toBe(0);
    const created = parse(key.stdout);
    expect(created.key).toMatch(/^sk-or-v1-[0-9a-f]{64}$/);

    const destination = await cli(
      [
        'create-destination',
        '--workspace',
        String(workspace.id),
        '--type',
        's3',
        '--name',
        'Archive',
        '--config',
        JSON.stringify({
          bucketName: 'b',
          accessKeyId: 'AKIAEXAMPLE12345',
          secretAccessKey: 'secret-access-key-0123456789',
        }),
      ],
      env,
    );
    expect(destination.code, destination.stderr).toBe(0);
    expect(parse(destination.stdout)).toMatchObject({ type: 's3' });

    for (const expectedVersion of [1, 2]) {
      const version = await cli(
        [
          'add-preset-version',
          '--workspace',
          String(workspace.id),
          '--slug',
          'triage',
          '--config',
          '{"model":"openai/gpt-4o"}',
          '--creator-id',
          'user_1',
        ],
        env,
      );
      expect(parse(version.stdout)).toMatchObject({ version: expectedVersion });
    }
    const usage = await cli(['record-usage', '--key-hash', String(created.hash), '--amount', '2.5'], env);
    expect(usage.code, usage.stderr).toBe(0);
    expect(parse(usage.stdout)).toMatchObject({ recorded: 2.5, byok: false });
  });

  it('refuses bad input with a clear message and a non-zero exit', async () => {
    const env = database();
    const workspace = parse((await cli(['create-workspace', '--name', 'Acme'], env)).stdout);
    const badType = await cli(
      ['create-destination', '--workspace', String(workspace.id), '--type', 'carrier-pigeon', '--config', '{}'],
      env,
    );
    expect(badType.code).toBe(1);
    expect(badType.stderr).toMatch(/^invalid input: \/type must be one of: /);
    const missingKey = await cli(
      [
        'create-destination',
        '--workspace',
        String(workspace.id),
        '--type',
        'langfuse',
        '--config',
        '{"publicKey":"pk-123456789012345"}',
      ],
      env,
    );
    expect(missingKey.code).toBe(1);
    expect(missingKey.stderr).toContain('/config/secretKey');
    const unknownCommand = await cli(['explode'], env);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('Usage');
  });
});

describe('migrating as a step of its own', () => {
  const lacking =
    'The database lacks migration 0001_initial, 0002_external_user_broadcast_regions, 0003_expand_data_moves of this release, and MIGRATE_ON_START is false: run `npm run migrate` (or `node dist/server/cli.js migrate`) first.';

  it('migrate applies what the database lacks, says which, and applies nothing the second time', async () => {
    const env = { ...database(), MIGRATE_ON_START: 'false' };
    const first = await cli(['migrate'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(parse(first.stdout)).toEqual({
      migrated: true,
      applied: ['0001_initial', '0002_external_user_broadcast_regions', '0003_expand_data_moves'],
    });
    const second = await cli(['migrate'], env);
    expect(parse(second.stdout)).toEqual({ migrated: true, applied: [] });
    // Once migrated, a command runs without migrating.
    expect((await cli(['list-workspaces'], env)).code).toBe(0);
  });

  it('with MIGRATE_ON_START=false, a command and the server refuse an unmigrated database in one line', async () => {
    const env = { ...database(), MIGRATE_ON_START: 'false' };
    const command = await cli(['list-workspaces'], env);
    expect(command.code).toBe(1);
    expect(command.stderr.trim()).toBe(lacking);
    const server = await runEntry('server/main.ts', [], { ...env, PORT: '0' });
    expect(server.code).toBe(1);
    expect(server.stderr.trim()).toBe(lacking);
    expect(server.stdout).not.toContain('management key');
  });
});

describe('a database made read-only for a move', () => {
  it('refuses each provisioning write in one line with exit 1, writes nothing, and writes again once --off', async () => {
    const env = database();
    expect((await cli(['create-workspace', '--name', 'Before'], env)).code).toBe(0);
    const on = await cli(['read-only'], env);
    expect(on.code, on.stderr).toBe(0);
    expect(parse(on.stdout)).toMatchObject({ read_only: true });
    const refused = await cli(['create-workspace', '--name', 'During'], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim()).toBe(
      'The database is read-only while it moves: nothing was written. Writes resume after `npm run -s cli -- read-only --off`, or on the database it moved to.',
    );
    const listed = parse((await cli(['list-workspaces'], env)).stdout) as { workspaces: { name: string }[] };
    expect(listed.workspaces.map((workspace) => workspace.name)).toEqual(['Before']);
    expect(parse((await cli(['read-only', '--off'], env)).stdout)).toEqual({ read_only: false, since: null });
    expect((await cli(['create-workspace', '--name', 'After'], env)).code).toBe(0);
  });
});
