// The CLI's commands run in-process on the arguments as the CLI reads them: what a command refuses
// and in which words, and what it warns of while doing what it was asked.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configRulesOf } from '../../server/domain/destination-config-rules.js';
import { FieldValidationError } from '../../server/domain/field-errors.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { readCommandLine } from '../../server/provisioning/command-line.js';
import { runsWithoutStore } from '../../server/provisioning/command-table.js';
import { RefusedError, UsageError } from '../../server/provisioning/command-values.js';
import { cliCommands, runCommand } from '../../server/provisioning/commands.js';
import { nodeAt } from '../../server/spec.js';
import { openStore, type Store } from '../../server/store/store.js';
import { createTestDatabase } from '../support/database.js';
import { destinationTypes, provision, spec } from '../support/server.js';

let store: Store;
let workspaceId: string;
let warnings: string[];

beforeEach(async () => {
  store = await openStore((await createTestDatabase()).url, createSecretBox(randomBytes(32)));
  workspaceId = (await store.workspaces.create('CLI', new Date())).id;
  warnings = [];
});

afterEach(async () => {
  await store.close();
});

const commands = cliCommands(spec);

/** The command line read as the CLI reads it, then run. */
function cli(argv: string[]): Promise<unknown> {
  const line = readCommandLine(argv, commands);
  if (!('run' in line)) throw new Error(`not a command to run: ${line.print}`);
  return runCommand(commands, line.run, line.values, {
    store,
    provisioning: provision,
    now: new Date(),
    warn: (warning) => warnings.push(warning),
  });
}

async function refusal(argv: string[]): Promise<unknown> {
  const error = await cli(argv).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(FieldValidationError);
  return (error as FieldValidationError).errors;
}

const createKey = (...more: string[]) => ['create-key', '--workspace', workspaceId, '--name', 'Ops', ...more];

describe('a workspace the command names', () => {
  it('is refused in one sentence when it does not exist', async () => {
    const error = await cli(['create-key', '--workspace', 'ws_missing', '--name', 'Ops']).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(RefusedError);
    expect((error as RefusedError).message).toBe(
      'no workspace ws_missing (npm run -s cli -- list-workspaces lists them)',
    );
  });

  it('is taken when it exists', async () => {
    await expect(cli(createKey())).resolves.toBeDefined();
  });
});

describe('negative numbers given apart reach the command, which says what it allows', () => {
  it('a negative --limit: the spec says a limit is >= 0', async () => {
    expect(await refusal(createKey('--limit', '-5'))).toEqual([{ path: '/limit', message: 'must be >= 0' }]);
  });

  it('a negative --amount: usage is a number >= 0', async () => {
    const { hash } = (await cli(createKey())) as { hash: string };
    expect(await refusal(['record-usage', '--key-hash', hash, '--amount', '-3'])).toEqual([
      { path: '/amount', message: 'must be a finite number >= 0' },
    ]);
  });
});

describe('input refused in the words of every other refusal', () => {
  it('an unknown destination type names the field and the types there are, as an unknown key kind does', async () => {
    const enumOf = (schema: string) => (nodeAt(spec, `#/components/schemas/${schema}/enum`) as string[]).join(', ');
    expect(
      await refusal(['create-destination', '--workspace', workspaceId, '--type', 'carrier-pigeon', '--config', '{}']),
    ).toEqual([{ path: '/type', message: `must be one of: ${enumOf('DestinationType')}` }]);
    expect(await refusal(createKey('--kind', 'root'))).toEqual([
      { path: '/kind', message: `must be one of: ${enumOf('KeyKind')}` },
    ]);
  });
});

describe('every command of the table runs', () => {
  /** For each command the table runs, its arguments and some of what it prints. */
  const runs: Record<string, (hash: string) => [string[], unknown]> = {
    migrate: () => [[], { migrated: true }],
    'create-workspace': () => [['--name', 'Acme'], { name: 'Acme' }],
    'list-workspaces': () => [[], { workspaces: [expect.objectContaining({ id: workspaceId })] }],
    'create-key': () => [['--workspace', workspaceId, '--name', 'Ops'], { kind: 'standard' }],
    'disable-key': (hash) => [['--hash', hash], { hash, disabled: true }],
    'enable-key': (hash) => [['--hash', hash], { hash, disabled: false }],
    'create-destination': () => [
      ['--workspace', workspaceId, '--type', 'webhook', '--config', '{"url":"https://example.com/hook"}'],
      { type: 'webhook', workspace_id: workspaceId },
    ],
    'add-preset-version': () => [
      ['--workspace', workspaceId, '--slug', 'support', '--config', '{"model":"m"}', '--creator-id', 'u'],
      { version: 1 },
    ],
    'record-usage': (hash) => [['--key-hash', hash, '--amount', '1.5'], { recorded: 1.5, byok: false }],
    seed: () => [['--demo'], { management_key: expect.any(String) }],
    'rotate-secrets-key': () => [[], { resealed: 0 }],
    'read-only': () => [[], { read_only: true, since: expect.any(String) }],
  };

  it('help alone is answered by the command line, never run; backup and copy-database run without the store (their own tests); every other command is run here', () => {
    expect(commands.filter((known) => !known.run).map((known) => known.name)).toEqual([
      'backup',
      'copy-database',
      'help',
    ]);
    expect(commands.filter(runsWithoutStore).map((known) => known.name)).toEqual(['backup', 'copy-database']);
    expect(Object.keys(runs).sort()).toEqual(
      commands
        .filter((known) => known.run)
        .map((known) => known.name)
        .sort(),
    );
  });

  it.each(commands.filter((known) => known.run).map((known) => [known.name]))('%s', async (name) => {
    const { hash } = (await cli(createKey())) as { hash: string };
    const [argv, printed] = runs[name]?.(hash) ?? [[], undefined];
    expect(await cli([name, ...argv])).toMatchObject(printed as object);
  });
});

describe('usage errors a command finds in a value, in the words of the others', () => {
  it.each([
    [['record-usage', '--key-hash', 'h', '--amount', 'ten'], '--amount must be a number'],
    [['record-usage', '--key-hash', 'h', '--amount', '1', '--at', 'noon'], '--at must be an ISO 8601 timestamp'],
    [['create-key', '--workspace', '{workspace}', '--name', 'Ops', '--limit', ' '], '--limit must be a number'],
    [
      ['create-destination', '--workspace', '{workspace}', '--type', 'webhook', '--config', '{'],
      '--config must be valid JSON',
    ],
  ])('%j: %s', async (argv, message) => {
    const given = argv.map((word) => (word === '{workspace}' ? workspaceId : word));
    await expect(cli(given)).rejects.toEqual(new UsageError(message));
  });

  it('a command the table does not run is a usage error', async () => {
    await expect(
      runCommand(commands, 'help', {}, { store, provisioning: provision, now: new Date(), warn: () => undefined }),
    ).rejects.toEqual(new UsageError('unknown command "help"'));
  });
});

describe('create-key --expires-at', () => {
  it('in the past: the key is created, with one warning that it is already expired and since when', async () => {
    const created = (await cli(createKey('--expires-at', '2020-01-01T01:00:00+01:00'))) as { hash: string };
    expect(await store.keys.findByHash(created.hash)).toMatchObject({ expires_at: '2020-01-01T00:00:00.000Z' });
    expect(warnings).toEqual([
      'the key is already expired (it expired at 2020-01-01T00:00:00.000Z); it is created, but cannot authenticate',
    ]);
  });

  it('in the future, or not given: no warning', async () => {
    const nextYear = new Date(Date.now() + 366 * 24 * 60 * 60 * 1000).toISOString();
    await cli(createKey('--expires-at', nextYear));
    await cli(createKey());
    expect(warnings).toEqual([]);
  });
});

describe('the fields of contract 2.2.0, set by the CLI and read back as the API shows them', () => {
  const createWebhook = (...more: string[]) => [
    'create-destination',
    '--workspace',
    workspaceId,
    '--type',
    'webhook',
    '--config',
    '{"url":"https://example.com/hook"}',
    ...more,
  ];
  const stateOf = async (printed: unknown) => {
    const { id } = printed as { id: string };
    const outcome = await store.destinations.update(workspaceId, id, new Date(), { changes: {} }, (type) =>
      configRulesOf(destinationTypes, type),
    );
    return outcome?.destination.state;
  };

  it('create-key --external-user: the key is attributed to that end user; null without it', async () => {
    const windows = { day: '2026-11-18', weekStart: '2026-11-16', monthStart: '2026-11-01' };
    const attributed = (await cli(createKey('--external-user', 'customer_4812'))) as { hash: string };
    const plain = (await cli(createKey())) as { hash: string };
    expect(await store.keys.findInWorkspaceWithUsage(workspaceId, attributed.hash, windows)).toMatchObject({
      external_user: 'customer_4812',
    });
    expect(await store.keys.findInWorkspaceWithUsage(workspaceId, plain.hash, windows)).toMatchObject({
      external_user: null,
    });
    expect(await refusal(createKey('--external-user', ''))).toEqual([
      { path: '/external_user', message: 'must NOT have fewer than 1 characters' },
    ]);
  });

  it('create-destination: the broadcast flags and the regions, eu stored as europe; false and [global] unless said', async () => {
    const printed = await cli(
      createWebhook('--broadcast-cost', '--broadcast-request-context', '--regions', 'us,eu,europe'),
    );
    expect(printed).toMatchObject({ regions: ['europe', 'us'] });
    expect(await stateOf(printed)).toMatchObject({
      broadcast_generation_cost: true,
      broadcast_generation_identity: false,
      broadcast_generation_request_context: true,
      regions: ['europe', 'us'],
    });
    expect(await stateOf(await cli(createWebhook('--broadcast-identity')))).toMatchObject({
      broadcast_generation_cost: false,
      broadcast_generation_identity: true,
      broadcast_generation_request_context: false,
      regions: ['global'],
    });
  });

  it('create-destination --regions: an unknown region, a region twice, or none, named as the API names them', async () => {
    expect(await refusal(createWebhook('--regions', 'global,mars'))).toEqual([
      { path: '/regions/1', message: 'must be one of: global, europe, us, eu' },
    ]);
    const [duplicate] = (await refusal(createWebhook('--regions', 'us,us'))) as { path: string }[];
    expect(duplicate?.path).toBe('/regions');
    expect(await refusal(createWebhook('--regions', ''))).toEqual([
      { path: '/regions/0', message: 'must be one of: global, europe, us, eu' },
    ]);
  });
});
